// ClipBridge — the clipbridge command-line tool.
// The daemon's options, made from its settings' descriptors: names, help and parsing come from DaemonSetting.

import ArgumentParser
import ClipBridgeOptions

extension DaemonSetting {
    /// `--key`, and `-s` where the setting has a short name.
    var optionName: NameSpecification {
        short.map { [.customShort($0), .customLong(key)] } ?? [.customLong(key)]
    }

    /// The option's help, with the default.
    var argumentHelp: ArgumentHelp { ArgumentHelp(helpText, valueName: valueName) }

    /// Reads one argument with the setting's reader, so that it is checked as a value from the file is.
    func argument(_ text: String) throws -> Element {
        do {
            return try element.value(ofArgument: text)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// A daemon option bound to its setting: how what ArgumentParser parsed joins the command line's layer.
/// `Daemon.options` lists one per setting, so the merge over the file is derived, not written per setting.
struct DaemonOption {
    /// The setting's key.
    let key: String
    /// Adds the option's value, when it was given, to the command line's layer.
    let add: (Daemon, inout SettingsLayer) -> Void

    /// An option that takes one value.
    static func value<Element, Value>(_ option: KeyPath<Daemon, Element?>, _ setting: DaemonSetting<Element, Value>) -> Self {
        DaemonOption(key: setting.key) { daemon, layer in
            if let given = daemon[keyPath: option] { layer.set(setting, to: [given]) }
        }
    }

    /// A repeatable option.
    static func list<Element, Value>(_ option: KeyPath<Daemon, [Element]>, _ setting: DaemonSetting<Element, Value>) -> Self {
        DaemonOption(key: setting.key) { daemon, layer in
            let given = daemon[keyPath: option]
            if !given.isEmpty { layer.set(setting, to: given) }
        }
    }

    /// A flag: given, it sets the setting true; absent, it leaves the file's value.
    static func flag<Value>(_ option: KeyPath<Daemon, Bool>, _ setting: DaemonSetting<Bool, Value>) -> Self {
        DaemonOption(key: setting.key) { daemon, layer in
            if daemon[keyPath: option] { layer.set(setting, to: [true]) }
        }
    }
}
