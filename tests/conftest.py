from hypothesis import HealthCheck, settings

# Property tests check behaviour, not speed: no per-example deadline, and a busy CI machine
# must not turn "slow data generation" into a failure.
settings.register_profile(
    "project",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile("project")
