#pragma once

// Tells systemd how the service is doing (the unit is Type=notify): ready
// once both listeners accept, stopping once a signal has come. Does nothing
// when systemd did not start the process (no NOTIFY_SOCKET).
namespace vcs::app {

void notify_ready();
void notify_stopping();

} // namespace vcs::app
