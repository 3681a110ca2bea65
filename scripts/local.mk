# Repository scripts (not installed): dependencies, build, tests, quickstart.
EXTRA_DIST += scripts/install-deps.sh scripts/build.sh scripts/test.sh \
	scripts/quickstart.sh
