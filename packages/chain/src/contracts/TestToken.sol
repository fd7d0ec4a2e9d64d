// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DevToken} from "./DevToken.sol";

/// @title TestToken
/// @notice ERC-20 that stands in for a stablecoin on the local development chain: transfer,
/// transferFrom and approve return true.
contract TestToken is DevToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) DevToken(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _transferFrom(from, to, value);
        return true;
    }
}
