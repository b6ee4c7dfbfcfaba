// SPDX-License-Identifier: Apache-2.0

/// `Data` transfers its bytes unchanged as `public.data`.
///
/// Every content type that conforms to `public.data` (text, images, custom types…) can be imported as
/// `Data`, which makes `Data` the "give me the raw bytes" type.
extension Data: Transferable {
    /// The bytes as `public.data`, both ways.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .data) { data in
            data
        } importing: { data in
            data
        }
    }
}
