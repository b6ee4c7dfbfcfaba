// UniformTypesTests
