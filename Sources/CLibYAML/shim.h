// libyaml (Debian's libyaml-dev): the YAML 1.1 parser the daemon's settings file is read with.
#include <yaml.h>
