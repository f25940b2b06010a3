# Single-user servers of the course hub (deploy/k8s/Dockerfile copies this to /etc/jupyter/).
c = get_config()  # noqa: F821
# kernel messages reach the browser at once, not after a 40 ms delayed ACK (lib/armlab/viz/server.py)
c.ServerApp.kernel_websocket_connection_class = "armlab.viz.server.NoDelayKernelConnection"
