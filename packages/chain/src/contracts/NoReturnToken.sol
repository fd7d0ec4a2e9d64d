// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title NoReturnToken
/// @notice ERC-20 shaped like Tether USD on Ethereum: transfer, transferFrom and approve return
/// nothing, so callers that decode a bool (or simulate with the standard ABI) fail as they would
/// against the real token.
/// @dev Like USDT, a non-zero allowance must be reset to zero before it can be changed to another
/// non-zero value. Only the deploying account may mint.
contract NoReturnToken {
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

    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "NoReturnToken: reset allowance to zero first");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        // An unlimited approval is never spent down, as in USDT.
        if (allowed != type(uint256).max) {
            require(allowed >= value, "NoReturnToken: allowance too low");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
    }

    function mint(address to, uint256 value) external returns (bool) {
        require(msg.sender == owner, "NoReturnToken: caller is not the owner");
        require(to != address(0), "NoReturnToken: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "NoReturnToken: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "NoReturnToken: balance too low");
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
