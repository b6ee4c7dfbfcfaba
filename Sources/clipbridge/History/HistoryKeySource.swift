// ClipBridge — the clipbridge command-line tool.
// Where an encrypted history's key comes from: a key command, or the Secret Service.

import ClipBridgeOptions
import ClipHistory
import Glibc

/// The history's key, from the settings: `history-key-command`'s output, else with `history-encrypt` the key kept in
/// the Secret Service — looked up, and made (``HistoryKey/newSecret()``) and stored there when the history is not
/// encrypted yet. Never made for a history that is: a lookup that finds nothing then (another keyring, a locked one)
/// is an error, not a new key stored over the one the history needs.
///
/// The Secret Service is reached through secret-tool, libsecret's own command (Debian's libsecret-tools): the
/// same lookup and store a libsecret client makes, without linking GLib into every `clipbridge` process.
enum HistoryKeySource {
    /// The attributes the key is stored under in the Secret Service (`secret-tool lookup` finds it by them).
    static let attributes = "application clipbridge purpose history-key"

    /// The key the settings name for the history in `directory`, or nil for a plain history.
    static func key(_ settings: DaemonSettings, directory: String) throws -> HistoryKey? {
        if let command = settings.historyKeyCommand { return try fromCommand(command) }
        if settings.historyEncrypt {
            let encrypted: Bool
            do {
                encrypted = try HistoryStore.isEncrypted(directory: directory)
            } catch {
                throw CLIFailure(status: .ioError, message: "cannot read the history in \(directory): \(error)")
            }
            return try fromSecretService(mayMake: !encrypted)
        }
        return nil
    }

    /// The bytes `command` prints, its last line break removed.
    static func fromCommand(_ command: String) throws -> HistoryKey {
        let (status, output) = try ShellCommand.run(command, what: "the history key command")
        guard status == 0 else {
            throw CLIFailure(status: .usage, message: "the history key command '\(command)' failed (status \(status))")
        }
        return try key(output, from: "the history key command '\(command)'")
    }

    /// The key kept in the Secret Service, made when there is none and `mayMake`.
    static func fromSecretService(mayMake: Bool) throws -> HistoryKey {
        guard PickerKind.isInstalled("secret-tool") else {
            throw CLIFailure(
                status: .usage,
                message: "history-encrypt keeps the key in the Secret Service through secret-tool: install libsecret-tools"
            )
        }
        let (status, output) = try ShellCommand.run("secret-tool lookup \(attributes)", what: "secret-tool")
        if status == 0, !output.isEmpty { return try key(output, from: "the Secret Service") }
        guard mayMake else {
            throw CLIFailure(
                status: .usage,
                message: "the history is encrypted, and the Secret Service gave no key for it (secret-tool lookup "
                    + "\(attributes)): is the keyring that holds it running and unlocked?"
            )
        }
        // None yet (secret-tool says nothing and exits 1): make one. A Secret Service that is not running fails the
        // store below, with secret-tool's own message on standard error.
        let made = Array(HistoryKey.newSecret().utf8)
        let (stored, _) = try ShellCommand.run(
            "secret-tool store --label='ClipBridge history key' \(attributes)", input: made, what: "secret-tool")
        guard stored == 0 else {
            throw CLIFailure(
                status: .ioError,
                message: "cannot keep the history key in the Secret Service (is a keyring, e.g. gnome-keyring, running?)"
            )
        }
        return try key(made, from: "the Secret Service")
    }

    private static func key(_ bytes: [UInt8], from source: String) throws -> HistoryKey {
        do {
            return try HistoryKey(secret: bytes)
        } catch {
            throw CLIFailure(status: .usage, message: "\(source): \(error)")
        }
    }
}
