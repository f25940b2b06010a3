"""JupyterHub for a real ArmLab class on one VM: a template, NOT run by any test (docs/instructor.md, "The demo class").

What differs from the demo (jupyterhub_config.py, which tests/integration/test_hub.py runs):
- real authentication: the university's single sign-on through OAuthenticator (or PAM: the VM's own
  accounts and passwords), never a shared password;
- HTTPS on the public address (a certificate, or TLS terminated by the department's reverse proxy);
- the people, the grader group and the course directory are the class's, not armlab-s1 … s3.
The layout is the demo's: every person an OS user (LocalProcessSpawner), nbgrader's exchange in a directory of
its own, the formgrader a service of the grader account, students with the Assignments tab only, and the
students' environment installed from the student edition (./run.sh student-edition, deploy/student_edition.py).

Replace every <…>; then: jupyterhub -f /etc/jupyterhub/jupyterhub_config.py
"""

c = get_config()  # noqa: F821

COURSE_ID = "armlab"
ENV = "/opt/armlab"  # python -m venv /opt/armlab && /opt/armlab/bin/pip install -r <student edition>/requirements.txt
#                      plus: /opt/armlab/bin/pip install 'jupyterhub>=5.3,<7' nbgitpuller
GRADERS = ["<instructor>", "<ta>"]

# --- network: HTTPS on the public address -----------------------------------------------------------------------
c.JupyterHub.bind_url = "https://<hub.example.edu>:443"
c.JupyterHub.ssl_cert = "/etc/letsencrypt/live/<hub.example.edu>/fullchain.pem"
c.JupyterHub.ssl_key = "/etc/letsencrypt/live/<hub.example.edu>/privkey.pem"
# (or: bind_url = "http://127.0.0.1:8000" behind the department's TLS reverse proxy)
c.Spawner.ip = "127.0.0.1"  # single-user servers are reached through the proxy only
c.JupyterHub.db_url = "sqlite:////srv/jupyterhub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "/srv/jupyterhub/jupyterhub_cookie_secret"

# --- real authentication ---------------------------------------------------------------------------------------------
# University SSO (pip install oauthenticator): people log in with their university account; create_system_users
# makes their OS accounts on first login (LocalAuthenticator).
c.JupyterHub.authenticator_class = "oauthenticator.generic.LocalGenericOAuthenticator"
c.GenericOAuthenticator.oauth_callback_url = "https://<hub.example.edu>/hub/oauth_callback"
c.GenericOAuthenticator.client_id = "<client id from the university's identity provider>"
c.GenericOAuthenticator.client_secret = "<client secret>"  # better: the OAUTH_CLIENT_SECRET environment variable
c.GenericOAuthenticator.authorize_url = "https://<idp.example.edu>/oauth2/authorize"
c.GenericOAuthenticator.token_url = "https://<idp.example.edu>/oauth2/token"
c.GenericOAuthenticator.userdata_url = "https://<idp.example.edu>/oauth2/userinfo"
c.GenericOAuthenticator.username_claim = "preferred_username"
c.LocalGenericOAuthenticator.create_system_users = True
# Alternative without SSO: the VM's accounts and passwords (JupyterHub's default PAMAuthenticator):
# c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = set(GRADERS) | {"<student ids, e.g. read from the roster>"}
c.Authenticator.admin_users = {"<instructor>"}

# --- groups and the formgrader service (as in the demo) -----------------------------------------------------------
c.JupyterHub.load_groups = {f"formgrade-{COURSE_ID}": {"users": GRADERS}}
c.JupyterHub.load_roles = [
    {
        "name": f"formgrade-{COURSE_ID}",
        "groups": [f"formgrade-{COURSE_ID}"],
        "scopes": [f"access:services!service={COURSE_ID}", "list:services", f"read:services!service={COURSE_ID}"],
    },
    {"name": "server", "scopes": ["inherit"]},
]
c.JupyterHub.services = [
    {
        "name": COURSE_ID,  # must equal the course_id
        "url": "http://127.0.0.1:9999",
        "command": [f"{ENV}/bin/jupyterhub-singleuser", "--ServerApp.root_dir=/home/grader-armlab/course"],
        "user": "grader-armlab",  # owns the course directory (solutions, gradebook): 0700
        "cwd": "/home/grader-armlab/course",
        "environment": {
            "JUPYTERHUB_DEFAULT_URL": "/formgrader",
            "JUPYTER_CONFIG_PATH": "/etc/armlab/jupyter-grader",
        },  # formgrader enabled here only
    }
]

# --- everyone's server: the Assignments tab, the course from the student edition ------------------------------------
c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
c.Spawner.cmd = [
    f"{ENV}/bin/jupyterhub-singleuser",
    "--ServerApp.kernel_websocket_connection_class=armlab.viz.server.NoDelayKernelConnection",
]
c.Spawner.environment = {"JUPYTER_CONFIG_PATH": "/etc/armlab/jupyter-student"}  # formgrader, create-assignment off
# the course (and its updates) via nbgitpuller from the student edition's git branch; a student's own edits win
c.Spawner.default_url = (
    "/git-pull?repo=https://<git.example.edu>/<course>/armlab-student&branch=student"
    "&urlpath=lab/tree/armlab-student/course/00_start_here.ipynb"
)
c.LocalProcessSpawner.interrupt_timeout = 2
# stop idle servers (pip install jupyterhub-idle-culler)
c.JupyterHub.services.append(
    {"name": "idle-culler", "command": ["python3", "-m", "jupyterhub_idle_culler", "--timeout=3600"]}
)
c.JupyterHub.load_roles.append(
    {
        "name": "idle-culler",
        "services": ["idle-culler"],
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    }
)
