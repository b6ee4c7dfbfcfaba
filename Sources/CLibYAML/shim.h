// libyaml (Debian's libyaml-dev): the YAML 1.1 parser the daemon's settings file is read with.
#include <yaml.h>

// The functions the settings reader looks up at run time (ClipBridgeOptions' YAMLLibrary.swift): each one's type taken
// from its declaration, and its name from the same token, so a wrong signature or name in the Swift table does not
// compile.
#define CLIPBRIDGE_LOOKED_UP(function) \
    typedef __typeof__(function) *clipbridge_##function##_t; \
    static const char *const clipbridge_##function##_name = #function;
CLIPBRIDGE_LOOKED_UP(yaml_parser_initialize)
CLIPBRIDGE_LOOKED_UP(yaml_parser_delete)
CLIPBRIDGE_LOOKED_UP(yaml_parser_set_encoding)
CLIPBRIDGE_LOOKED_UP(yaml_parser_set_input_string)
CLIPBRIDGE_LOOKED_UP(yaml_parser_parse)
CLIPBRIDGE_LOOKED_UP(yaml_event_delete)
