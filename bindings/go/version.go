package tco

// #cgo pkg-config: libtco
// #include "tco_go.h"
import "C"

import "fmt"

// HeaderMajor is the major version of the libtco API this package is
// written for. The build stops if the tco.h that pkg-config finds has
// another major version, and every constructor fails with ErrVersion if the
// library loaded at run time has another (see CheckVersion).
const HeaderMajor = 1

var (
	headerNumber = uint32(C.TCO_VERSION_NUMBER)
	headerString = C.GoString(C.tcogo_header_version())
	versionErr   = checkVersion()
)

// Version is the version string of the libtco loaded at run time
// ("1.0.0").
func Version() string { return C.GoString(C.tco_version_string()) }

// VersionNumber is the version of the loaded libtco as MAJOR*10000 +
// MINOR*100 + PATCH.
func VersionNumber() uint32 { return uint32(C.tco_version_number()) }

// HeaderVersion is the version of the tco.h this package was compiled
// against ("1.0.0"); the loaded library must have its major version and be
// at least as recent.
func HeaderVersion() string { return headerString }

// CheckVersion reports whether the loaded libtco can serve this package: the
// same major version as the header it was compiled against, and at least as
// recent (structs and enums of the header then exist in the library). It
// returns an error wrapping ErrVersion otherwise; every constructor returns
// that error too, so no handle can be made with a mismatched library.
func CheckVersion() error { return versionErr }

func checkVersion() error {
	v := uint32(C.tco_version_number())
	if v/10000 != HeaderMajor || v/10000 != headerNumber/10000 || v < headerNumber {
		return fmt.Errorf("%w: compiled against libtco %s (1.x), loaded libtco %s",
			ErrVersion, headerString, C.GoString(C.tco_version_string()))
	}
	return nil
}
