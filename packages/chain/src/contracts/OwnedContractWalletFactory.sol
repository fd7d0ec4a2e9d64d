// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {OwnedContractWallet} from "./OwnedContractWallet.sol";

/// @title OwnedContractWalletFactory
/// @notice Deploys an `OwnedContractWallet` by CREATE2, for tests of sign-in by a wallet not deployed yet
/// (ERC-6492): the wallet's address is known from its owner and salt before it exists, and a signature
/// wrapped with this factory's call proves it.
contract OwnedContractWalletFactory {
    /// @notice The CREATE2 address of the wallet of `owner` under `salt`.
    function walletAddress(address owner, bytes32 salt) external view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(OwnedContractWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }

    /// @notice Deploys the wallet of `owner` under `salt`.
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new OwnedContractWallet{salt: salt}(owner));
    }
}
