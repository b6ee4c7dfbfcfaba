// Seed: Sketch (two-way DataRepresentation as PNG)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The snippet has no import line; the one below is the only addition. renderToPNGData()/init(pngData:) are in
// Sketch+PNGHelper.swift.
import TransferKit

struct Sketch: Transferable {
    var strokes: [CGPoint]

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .png) { sketch in
            try sketch.renderToPNGData()
        } importing: { data in
            try Sketch(pngData: data)
        }
    }
}
