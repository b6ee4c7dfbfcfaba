// ClipBridge — the clipboard manager's validation hook: a user command that sees each new clipboard content and
// may veto it (`clipbridge daemon --validate COMMAND`).

import ClipBridge
import FoundationEssentials
import Glibc
import X11Selection

/// Runs `/bin/sh -c COMMAND` for each new owner's content and turns its exit status into a verdict.
///
/// The command gets the content's text on standard input, as UTF-8 — the text `paste` would give
/// (`TargetMapping.preferredTextTarget` and `canonicalText`), at most `textLimit` bytes of it; nothing for
/// content without text or marked sensitive — and the same variables as `watch --exec`: CLIPBRIDGE_SELECTION, CLIPBRIDGE_REASON (new-owner),
/// CLIPBRIDGE_TYPES (the kept targets, space-separated), CLIPBRIDGE_SENSITIVE (1 or 0), CLIPBRIDGE_OWNER.
/// Exit 0 accepts, 1 restores the previous content, 2 clears the selection. Anything else — another status, a
/// command that cannot start or runs past `timeout` (it is then killed) — accepts, with the reason reported:
/// a broken hook must not leave the desktop without a clipboard.
struct ValidationHook: Sendable {
    var command: String
    var timeout: Duration
    /// The most text handed to the command.
    static let textLimit = 1 << 20

    /// The verdict on `change`, and why when the command's own word could not be had.
    func judge(_ change: SelectionKeeper.Change) async -> (SelectionKeeper.Verdict, problem: String?) {
        await judge(change.snapshot, owner: change.owner.map { "\($0)" })
    }

    /// The verdict on a new owner's `snapshot` on any display server; `owner` as CLIPBRIDGE_OWNER (nil where the
    /// display server does not say: Wayland).
    func judge(_ snapshot: SelectionSnapshot, owner: String?) async -> (KeeperVerdict, problem: String?) {
        let runner = CommandRunner(arguments: ["/bin/sh", "-c", command], environment: [
            "CLIPBRIDGE_SELECTION": snapshot.selection.rawValue,
            "CLIPBRIDGE_REASON": "new-owner",
            "CLIPBRIDGE_TYPES": snapshot.flavours.map(\.target.rawValue).joined(separator: " "),
            "CLIPBRIDGE_SENSITIVE": snapshot.isSensitive ? "1" : "0",
            "CLIPBRIDGE_OWNER": owner ?? "",
        ])
        let running: CommandRunner.Running
        do {
            running = try runner.start()
        } catch {
            return (.accept, "the hook could not start: \(CLIFailure(error, display: nil).message)")
        }
        let text = Self.text(of: snapshot)
        let status: Int32? = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                // A pipe write blocks until the command reads (or exits): on a thread of its own.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    BlockingThread.start {
                        _ = text.withUnsafeBytes { running.feed($0) }
                        continuation.resume()
                    }
                }
                return await running.finish()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil {
                kill(running.pid, SIGKILL)
                // Reaped by the first task, which ends now that the command is gone.
                _ = await group.next()
            }
            group.cancelAll()
            return first
        }
        switch status {
        case 0: return (.accept, nil)
        case 1: return (.restorePrevious, nil)
        case 2: return (.clear, nil)
        case nil: return (.accept, "the hook ran longer than \(timeout) and was killed")
        case let other?: return (.accept, "the hook exited with status \(other)")
        }
    }

    /// The best text flavour as UTF-8, at most `textLimit` bytes of it.
    static func text(of snapshot: SelectionSnapshot) -> Data {
        guard !snapshot.isSensitive,
            let target = TargetMapping.preferredTextTarget(in: snapshot.flavours.map(\.target)),
            let flavour = snapshot.flavours.first(where: { $0.target == target })
        else { return Data() }
        // Spooled text is over 1 MiB: only its first `textLimit` bytes are read (a multi-byte character cut at the
        // end decodes as a replacement character).
        let bytes = (try? flavour.content.prefix(textLimit)) ?? Data()
        let text = TargetMapping.canonicalText(bytes, target: flavour.target, propertyType: flavour.type) ?? Data()
        return text.prefix(textLimit)
    }
}
