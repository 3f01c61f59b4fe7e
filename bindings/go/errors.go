package tco

// #include "tco_go.h"
import "C"

import (
	"errors"
	"strings"
	"unsafe"
)

// Status is a libtco status code (tco_status): 0 for success, negative for a
// failure. The values are the library's and never change.
type Status int32

// The status codes of tco.h.
const (
	StatusOK           Status = 0
	StatusNull         Status = -1
	StatusRange        Status = -2
	StatusNotFinite    Status = -3
	StatusInconsistent Status = -4
	StatusFrozen       Status = -5
	StatusNotFrozen    Status = -6
	StatusUnknownParam Status = -7
	StatusWrongHandle  Status = -8
	StatusType         Status = -9
	StatusNoMem        Status = -10
	StatusSize         Status = -11
	StatusIndex        Status = -12
)

// String is the code's name as tco.h spells it ("TCO_E_RANGE").
func (s Status) String() string { return C.GoString(C.tco_status_name(C.int(s))) }

// Message is the library's one-line sentence for the code.
func (s Status) Message() string { return C.GoString(C.tco_status_message(C.int(s))) }

// Err is nil for StatusOK and otherwise an *Error carrying only the code (the
// form batch and sweep results give per item).
func (s Status) Err() error {
	if s == StatusOK {
		return nil
	}
	return &Error{Code: s, Message: s.Message()}
}

// Error is a failure reported by libtco (or found by this package before
// calling it): the status code, the parameter concerned (key and name, or 0
// and "") and the library's message, which names the input and what is
// allowed.
//
// errors.Is(err, ErrRange) and the other sentinels compare codes;
// errors.As(err, &e) gives the *Error.
type Error struct {
	Code      Status
	Param     int32  // the tco_param key concerned, or 0
	ParamName string // the parameter or field concerned ("mfu", "placement.pool[1]"), or ""
	Message   string
	closed    bool // the handle was closed (ErrClosed)
}

// Error returns "tco: " and the message.
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Code.Message()
	}
	return "tco: " + msg
}

// Is matches the sentinel of the same code; ErrClosed only matches errors
// about a closed handle.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Code == e.Code && (!t.closed || e.closed)
}

// Sentinels, one per status code, for errors.Is.
var (
	ErrNull         = sentinel(StatusNull)
	ErrRange        = sentinel(StatusRange)
	ErrNotFinite    = sentinel(StatusNotFinite)
	ErrInconsistent = sentinel(StatusInconsistent)
	ErrFrozen       = sentinel(StatusFrozen)
	ErrNotFrozen    = sentinel(StatusNotFrozen)
	ErrUnknownParam = sentinel(StatusUnknownParam)
	ErrWrongHandle  = sentinel(StatusWrongHandle)
	ErrType         = sentinel(StatusType)
	ErrNoMem        = sentinel(StatusNoMem)
	ErrSize         = sentinel(StatusSize)
	ErrIndex        = sentinel(StatusIndex)

	// ErrClosed is the error of a call on a closed (or nil) handle. Its code
	// is StatusNull, as passing NULL to the library would give, so it also
	// matches ErrNull.
	ErrClosed = &Error{Code: StatusNull, Message: "the handle is closed", closed: true}

	// ErrVersion is wrapped by the error of CheckVersion and of every
	// constructor when the loaded libtco is not the major version this
	// package was compiled against, or older than its header.
	ErrVersion = errors.New("tco: libtco version mismatch")
)

func sentinel(s Status) *Error { return &Error{Code: s, Message: s.Message()} }

// newCErr is a tco_error ready to pass to the library.
func newCErr() C.tco_error {
	var e C.tco_error
	e.size = C.size_t(unsafe.Sizeof(e))
	return e
}

// failure turns a failed call's status and detail into an *Error.
func failure(rc C.int, e *C.tco_error) error {
	if rc == 0 {
		return nil
	}
	out := &Error{Code: Status(rc)}
	if e != nil && Status(e.code) == out.Code {
		out.Param = int32(e.param)
		out.ParamName = C.GoString(&e.param_name[0])
		out.Message = C.GoString(&e.message[0])
	}
	if out.Message == "" {
		out.Message = out.Code.Message()
	}
	return out
}

// errClosed names the kind of handle that is closed or nil.
func errClosed(what string) error {
	return &Error{Code: StatusNull, Message: "the " + what + " is closed or nil", closed: true}
}

// errArg is an error found in Go before calling the library (a slice of the
// wrong length, a text with a NUL byte...), in the library's style.
func errArg(code Status, name, msg string) error {
	return &Error{Code: code, ParamName: name, Message: msg}
}

// cText is s as a C string, refusing embedded NUL bytes (C would see only
// what precedes the first). The caller frees it.
func cText(s, name string, key int32) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, &Error{Code: StatusRange, Param: key, ParamName: name,
			Message: name + ": the text holds a NUL byte"}
	}
	return C.CString(s), nil
}
