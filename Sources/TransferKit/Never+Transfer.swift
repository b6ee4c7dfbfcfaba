// SPDX-License-Identifier: Apache-2.0

/// `Never` is the `Body` of every leaf representation, as in Apple's framework (`Never` conforms to both
/// protocols there too).
extension Never: TransferRepresentation {
    /// `Never` transfers nothing; its item type is itself.
    public typealias Item = Never
    /// `Never` has no body.
    public typealias Body = Never
}

// The witness lives in a separate extension so that the result builder of the requirement is not
// applied to it (builder inference only looks at the declaration that states the conformance).
extension Never: Transferable {}

extension Never {
    /// `Never` has no values, so it has no representation to return.
    public static var transferRepresentation: Never {
        preconditionFailure("Never has no transfer representation")
    }
}
