// ClipBridgeTests
