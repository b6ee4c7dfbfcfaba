// ClipBridge — the clipbridge command-line tool.
// Library values `clipbridge daemon` takes as option values.

import ArgumentParser
import ClipBridge
import Logging

extension ContentRule: ExpressibleByArgument {}

extension Logger.Level: @retroactive ExpressibleByArgument {}
