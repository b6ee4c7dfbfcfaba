// TransferKitTests
