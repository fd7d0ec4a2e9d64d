// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DepositForwarder
/// @notice A checkout session's deposit address. Its one destination, the merchant's receiving address,
/// is a constructor argument: it is part of the init code, so it decides the CREATE2 address, and no code
/// here can send anything anywhere else. There is no owner and no other write.
contract DepositForwarder {
    /// @notice Where everything this contract holds goes, fixed at creation.
    address public immutable destination;

    /// @notice A token whose transfer to the destination failed; the balance stays for a later sweep.
    event SweepFailed(address indexed token);

    constructor(address destination_) {
        destination = destination_;
    }

    /// @notice Sends this contract's whole balance of each token, and of the native coin, to the
    /// destination. Anyone may call it: it can only pay the destination. A token that refuses (paused,
    /// blocked) is skipped with `SweepFailed` so that the others still move.
    function sweep(address[] calldata tokens) external {
        address to = destination;
        for (uint256 i = 0; i < tokens.length; i++) {
            address token = tokens[i];
            bool failed;
            // Assembly keeps the runtime code small: deploying it is most of a deposit address's cost.
            assembly {
                // balanceOf(address(this)): the selector in the 4 bytes before the argument.
                mstore(0x00, 0x70a08231)
                mstore(0x20, address())
                // Yul evaluates arguments right to left: the call is made before its return size is read.
                let read := staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)
                if and(read, gt(returndatasize(), 0x1f)) {
                    let held := mload(0x00)
                    if held {
                        // transfer(to, held); a token returning nothing (USDT-style) counts as success.
                        let m := mload(0x40)
                        mstore(m, shl(224, 0xa9059cbb))
                        mstore(add(m, 0x04), to)
                        mstore(add(m, 0x24), held)
                        mstore(0x00, 0)
                        let ok := call(gas(), token, 0, m, 0x44, 0x00, 0x20)
                        let returned := or(iszero(returndatasize()), and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)))
                        failed := iszero(and(ok, returned))
                    }
                }
            }
            if (failed) emit SweepFailed(token);
        }
        uint256 native = address(this).balance;
        if (native > 0) {
            // A destination that refuses the coin leaves it here; the tokens are unaffected.
            (bool sent, ) = to.call{value: native}("");
            sent;
        }
    }

    /// @notice The native coin may be sent here too; the next sweep forwards it.
    receive() external payable {}
}
