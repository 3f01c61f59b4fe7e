module libtco.dev/tco

go 1.24
