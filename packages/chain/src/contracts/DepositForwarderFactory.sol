// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DepositForwarder} from "./DepositForwarder.sol";

/// @title DepositForwarderFactory
/// @notice Deploys deposit forwarders by CREATE2 and sweeps them, many per transaction. The address of a
/// forwarder follows from this factory's address, the salt and the destination alone, so it is known
/// (and may be paid) before anything is deployed. Anyone may call: a forwarder only ever pays its own
/// destination, so a caller chooses only when the funds move, never where.
contract DepositForwarderFactory {
    /// @notice One forwarder to sweep: its destination and salt (which give its address) and the tokens to move.
    struct Sweep {
        address destination;
        bytes32 salt;
        address[] tokens;
    }

    /// @notice The CREATE2 address of the forwarder to `destination` under `salt`.
    function forwarderAddress(address destination, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(
            abi.encodePacked(type(DepositForwarder).creationCode, abi.encode(destination))
        );
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }

    /// @notice Deploys each forwarder not deployed yet, then sweeps each of its tokens to its destination.
    function deployAndSweep(Sweep[] calldata sweeps) external {
        for (uint256 i = 0; i < sweeps.length; i++) {
            Sweep calldata s = sweeps[i];
            address forwarder = forwarderAddress(s.destination, s.salt);
            if (forwarder.code.length == 0) {
                new DepositForwarder{salt: s.salt}(s.destination);
            }
            DepositForwarder(payable(forwarder)).sweep(s.tokens);
        }
    }
}
