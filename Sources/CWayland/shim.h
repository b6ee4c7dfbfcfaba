// libwayland-client's headers, for CWaylandShims (nothing in Swift calls libwayland directly).
#include <wayland-client-core.h>
