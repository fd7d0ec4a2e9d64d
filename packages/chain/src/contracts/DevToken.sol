// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DevToken
/// @notice What the dev chain's stablecoins share: ERC-20 state and events, an owner-only mint, and
/// the moves behind transfer and transferFrom. Each token adds the public writes of the token it
/// stands in for.
/// @dev Only the deploying account may mint, so the dev chain's supply stays where bootstrap put it.
abstract contract DevToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable owner;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    function mint(address to, uint256 value) external returns (bool) {
        require(msg.sender == owner, "DevToken: caller is not the owner");
        require(to != address(0), "DevToken: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
        return true;
    }

    function _approve(address spender, uint256 value) internal {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    /// An unlimited approval is never spent down, as in most deployed stablecoins (USDT included).
    function _transferFrom(address from, address to, uint256 value) internal {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "DevToken: allowance too low");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "DevToken: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "DevToken: balance too low");
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
