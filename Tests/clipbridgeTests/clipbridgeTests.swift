// clipbridgeTests
