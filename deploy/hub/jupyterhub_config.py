"""JupyterHub configuration of the ArmLab demo class (deploy/hub/classroom.py, ``./run.sh classroom``).

DEMO ONLY: a shared password printed on the terminal, everything on 127.0.0.1. The class's paths, ports and
secrets come from ``$ARMLAB_CLASSROOM`` (the ``classroom.json`` that classroom.py writes). A real class
starts from ``jupyterhub_config.production.py`` (real authentication, TLS) instead.
"""

import json
import os
from pathlib import Path

import jupyterhub

c = get_config()  # noqa: F821  (provided by traitlets when it loads this file)

cls = json.loads(Path(os.environ["ARMLAB_CLASSROOM"]).read_text())
ROOT = Path(cls["root"])
LOOPBACK = "127.0.0.1"
COURSE_ID = "armlab"
GRADERS = ["armlab-instructor", "armlab-ta"]
STUDENTS = ["armlab-s1", "armlab-s2", "armlab-s3"]
ENV_BIN = str(Path(cls["python"]).parent)
PATH = f"{ENV_BIN}:/usr/local/bin:/usr/bin:/bin"
# the interpreter's libpython when classroom.py had to copy it (a pyenv Python under /root)
LIBS = {"LD_LIBRARY_PATH": cls["ld_library_path"]} if cls["ld_library_path"] else {}
SINGLEUSER = [
    cls["python"],
    "-m",
    "jupyterhub.singleuser",
    # kernel messages reach the browser at once (lib/armlab/viz/server.py), as with ./run.sh course
    "--ServerApp.kernel_websocket_connection_class=armlab.viz.server.NoDelayKernelConnection",
]

# --- network: loopback only ------------------------------------------------------------------------------------
c.JupyterHub.bind_url = f"http://{LOOPBACK}:{cls['port']}"
c.JupyterHub.hub_bind_url = f"http://{LOOPBACK}:{cls['hub_port']}"
c.ConfigurableHTTPProxy.api_url = f"http://{LOOPBACK}:{cls['proxy_api_port']}"
c.ConfigurableHTTPProxy.command = [cls["proxy"]]
c.ConfigurableHTTPProxy.pid_file = str(ROOT / "hub" / "jupyterhub-proxy.pid")
c.Spawner.ip = LOOPBACK

# --- the hub's own state ---------------------------------------------------------------------------------------
c.JupyterHub.db_url = f"sqlite:///{ROOT / 'hub' / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(ROOT / "hub" / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(ROOT / "hub" / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every server

# --- people: a shared demo password (never in a real class) -------------------------------------------------------
c.JupyterHub.authenticator_class = "jupyterhub.authenticators.shared.SharedPasswordAuthenticator"
c.SharedPasswordAuthenticator.user_password = cls["password"]
c.Authenticator.allowed_users = set(GRADERS + STUDENTS)
c.JupyterHub.load_groups = {"formgrade-armlab": {"users": GRADERS}}
c.JupyterHub.load_roles = [
    {
        "name": "formgrade-armlab",
        "groups": ["formgrade-armlab"],
        "scopes": [f"access:services!service={COURSE_ID}", "list:services", f"read:services!service={COURSE_ID}"],
    },
    {"name": "server", "scopes": ["inherit"]},  # the course-list extension sees the service
    {"name": "admin", "services": ["armlab-admin"]},  # classroom.py / the test drive the hub with this token
]

# --- everyone's own server: the Assignments tab, no formgrader, no Create Assignment ----------------------------------
if cls["real_users"]:
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"  # each person is an OS user
else:  # NOT isolated: every server runs as the hub's user (classroom.py --shared-user says so loudly)
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(ROOT / "home" / "{username}")
    if os.geteuid() == 0:  # --shared-user as root: Jupyter refuses root unless told
        SINGLEUSER = SINGLEUSER + ["--ServerApp.allow_root=True"]
c.Spawner.cmd = SINGLEUSER
c.Spawner.default_url = "/lab"
c.Spawner.env_keep = ["LANG", "LC_ALL", "TZ"]  # no PYTHONPATH, no VIRTUAL_ENV of whoever started the hub
c.Spawner.environment = {"PATH": PATH, "JUPYTER_CONFIG_PATH": str(ROOT / "config" / "student"), **LIBS}
c.Spawner.start_timeout = 90
c.Spawner.http_timeout = 90
c.LocalProcessSpawner.interrupt_timeout = 2  # a server ignores SIGINT without a terminal: go on to SIGTERM
c.Spawner.mem_limit = "2G"  # advisory with the local spawners (docs/instructor.md gives measured needs)

# --- the formgrader: a hub service in the course directory, run as the grader account ---------------------------------
c.JupyterHub.services = [
    {
        "name": COURSE_ID,  # must equal the course_id
        "url": f"http://{LOOPBACK}:{cls['service_port']}",
        "command": SINGLEUSER + [f"--ServerApp.root_dir={cls['course']}"],
        "cwd": cls["course"],
        "environment": {
            "PATH": PATH,
            "JUPYTER_CONFIG_PATH": str(ROOT / "config" / "grader"),
            "JUPYTERHUB_DEFAULT_URL": "/formgrader",
            "HOME": str(Path(cls["course"]).parent),
            **LIBS,
        },
        "oauth_no_confirm": True,
        **({"user": "armlab-grader"} if cls["real_users"] else {}),
    },
    {"name": "armlab-admin", "api_token": cls["admin_token"]},
]
if int(jupyterhub.__version__.split(".")[0]) >= 6:
    # the hub exits when the formgrader is not up within this time (JupyterHub 6's default, 30 s, is short on a
    # busy 2-core machine; the field is new in 6.0)
    c.JupyterHub.services[0]["timeout"] = 120
