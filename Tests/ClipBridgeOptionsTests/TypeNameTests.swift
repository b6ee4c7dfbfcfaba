import ClipBridge
import ClipBridgeOptions
import Testing
import UniformTypes
import X11Selection

/// How a `-t` argument is read: an X target name (all capitals) is that target, a lower-case word the generic type.
struct TypeNameTests {
    @Test func theTargetTEXTIsNotTheWordText() {
        #expect(TypeName.resolve("TEXT")?.exactTarget == "TEXT")
        #expect(TypeName.resolve("text")?.exactTarget == nil)
        #expect(TypeName.resolve("text")?.contentType == .plainText)
        #expect(TypeName.resolve("Text")?.exactTarget == nil)
        #expect(TypeName.resolve("STRING")?.exactTarget == "STRING")
        #expect(TypeName.resolve("image")?.exactTarget == nil)
        #expect(TypeName.resolve("text/plain;charset=ISO-8859-1")?.exactTarget == "text/plain;charset=ISO-8859-1")
    }
}
