// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DevToken} from "./DevToken.sol";

/// @title NoReturnToken
/// @notice ERC-20 shaped like Tether USD on Ethereum: transfer, transferFrom and approve return
/// nothing, so callers that decode a bool (or simulate with the standard ABI) fail as they would
/// against the real token.
/// @dev Like USDT, a non-zero allowance must be reset to zero before it can be changed to another
/// non-zero value.
contract NoReturnToken is DevToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) DevToken(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "NoReturnToken: reset allowance to zero first");
        _approve(spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _transferFrom(from, to, value);
    }
}
