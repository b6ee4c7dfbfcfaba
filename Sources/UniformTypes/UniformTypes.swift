// UniformTypes: `UTType` on Linux, name-for-name with Apple's UniformTypeIdentifiers.
