"""Running a host: settings, assembling and serving the process (or a group
of processes), metrics, logs, retention, webhooks and forwarding between
the processes of a group."""
