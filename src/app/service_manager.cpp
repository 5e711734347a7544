#include "app/service_manager.hpp"

#include <systemd/sd-daemon.h>

namespace vcs::app {

void notify_ready() {
  sd_notify(0, "READY=1");
}

void notify_stopping() {
  sd_notify(0, "STOPPING=1");
}

} // namespace vcs::app
