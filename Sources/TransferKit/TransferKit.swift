// TransferKit: `Transferable` on Linux, name-for-name with Apple's CoreTransferable.
