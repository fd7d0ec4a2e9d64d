// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title OwnedContractWallet
/// @notice A smart-contract wallet of one owner key, for tests of contract-wallet sign-in: it answers
/// ERC-1271's `isValidSignature` with the magic value for a signature of the hash by its owner, and with
/// 0xffffffff for any other. It holds and sends nothing.
contract OwnedContractWallet {
    /// @notice The key whose signatures the wallet accepts, fixed at creation.
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice ERC-1271: 0x1626ba7e when `signature` (65 bytes: r, s, v) is the owner's over `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
