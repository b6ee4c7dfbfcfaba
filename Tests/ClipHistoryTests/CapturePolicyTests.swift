// What the history records of the copies a keeper hands it: the one decision, with no display and no database.

import ClipHistory
import FoundationEssentials
import SelectionCore
import Testing

@Suite("What the history records")
struct CapturePolicyTests {
    func copy(_ flavours: [(SelectionTarget, String)], to selection: SelectionName = .clipboard) -> CapturedCopy {
        CapturedCopy(selection: selection, flavours: flavours.map { target, text in
            let bytes = Data(text.utf8)
            return CapturedCopy.Flavour(target: target, type: target, format: 8, content: .bytes(bytes), byteCount: bytes.count)
        })
    }

    let text: [(SelectionTarget, String)] = [("UTF8_STRING", "an ordinary copy"), ("text/html", "<b>an ordinary</b> copy")]
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test("an ordinary copy is recorded; the selections not asked for are not, PRIMARY only when asked")
    func selections() throws {
        let policy = CapturePolicy()
        #expect(policy.refusal(copy(text), application: nil, pausedUntil: nil, now: now) == nil)
        #expect(policy.refusal(copy(text, to: .primary), application: nil, pausedUntil: nil, now: now) == "PRIMARY is not recorded")
        #expect(policy.records(.clipboard) && !policy.records(.primary))
        let both = CapturePolicy(selections: [.clipboard, .primary])
        #expect(both.refusal(copy(text, to: .primary), application: nil, pausedUntil: nil, now: now) == nil)
        #expect(both.records(.primary) && !both.records(.secondary))
    }

    @Test("a file manager's cut is not recorded (pasting it again would move files that moved); a copy of files is")
    func cuts() {
        let policy = CapturePolicy()
        let files: [(SelectionTarget, String)] = [("text/uri-list", "file:///home/user/a.pdf\r\n")]
        let cut = copy(files + [("application/x-kde-cutselection", "1")])
        #expect(cut.isCut)
        #expect(policy.refusal(cut, application: nil, pausedUntil: nil, now: now)?.contains("a cut is not recorded") == true)
        let copied = copy(files + [("application/x-kde-cutselection", "0")])
        #expect(!copied.isCut && policy.refusal(copied, application: nil, pausedUntil: nil, now: now) == nil)
    }

    @Test("a pause holds until its end; ignored applications by class or instance, any case; ignored text anywhere")
    func pausesApplicationsAndText() throws {
        let policy = CapturePolicy(ignoredApplications: ["keepassxc"], ignoredText: [try .init("^[0-9]{6}$"), try .init("token=")])
        #expect(policy.refusal(copy(text), application: nil, pausedUntil: now.addingTimeInterval(60), now: now) == "recording is paused")
        #expect(policy.refusal(copy(text), application: nil, pausedUntil: now.addingTimeInterval(-1), now: now) == nil)
        let keepass = WindowClass(instance: "keepassxc", className: "KeePassXC")
        #expect(policy.refusal(copy(text), application: keepass, pausedUntil: nil, now: now) == "copies of keepassxc are ignored")
        #expect(policy.refusal(copy(text), application: WindowClass(instance: "xterm", className: "XTerm"), pausedUntil: nil, now: now) == nil)
        #expect(policy.refusal(copy([("UTF8_STRING", "123456")]), application: nil, pausedUntil: nil, now: now)
                    == "the text matches the ignore pattern '^[0-9]{6}$'")
        #expect(policy.refusal(copy([("UTF8_STRING", "see https://x.example/?token=abc")]), application: nil, pausedUntil: nil, now: now)
                    == "the text matches the ignore pattern 'token='")
        #expect(policy.refusal(copy([("UTF8_STRING", "1234567")]), application: nil, pausedUntil: nil, now: now) == nil)
        #expect(throws: HistoryError.self) { try CapturePolicy.TextPattern("(") }
    }
}
