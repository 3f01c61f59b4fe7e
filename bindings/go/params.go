package tco

// #include "tco_go.h"
import "C"

import (
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// HandleKind says which handle a parameter belongs to.
type HandleKind int32

// The three handles of a scenario.
const (
	KindTopology HandleKind = 1
	KindWorkload HandleKind = 2
	KindPricing  HandleKind = 3
)

// String is the library's name of the handle kind ("topology", "workload",
// "pricing"): the name it has in files, messages and Params.
func (k HandleKind) String() string {
	if k >= KindTopology && k <= KindPricing && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown handle"
}

// ParamType is the kind of value a parameter takes.
type ParamType int32

// Parameter types (tco_param_type).
const (
	TypeReal   ParamType = 1 // any finite value within bounds
	TypeInt    ParamType = 2 // a whole number within bounds
	TypeBool   ParamType = 3 // 0 or 1
	TypeChoice ParamType = 4 // one of named values: SetText by name or Set by value
	TypeText   ParamType = 5 // a short text (at most 63 bytes)
)

// String is the library's name of the type in capitals, as tco.h spells the
// enum ("REAL", "INT", "BOOL", "CHOICE", "TEXT").
func (t ParamType) String() string {
	if t >= TypeReal && t <= TypeText && typeNames[t] != "" {
		return typeNames[t]
	}
	return "UNKNOWN"
}

// The names of the handle kinds and of the parameter types, by value, read
// from the library once when the package is initialised: String calls no C.
var (
	kindNames = enumNames(int32(KindPricing), func(v int32) *C.char { return C.tco_handle_kind_name(C.int32_t(v)) })
	typeNames = capitals(enumNames(int32(TypeText), func(v int32) *C.char { return C.tco_param_type_name(C.int32_t(v)) }))
)

// enumNames is the library's name of each value 1 to last, by value ("" for
// a value it does not name).
func enumNames(last int32, name func(int32) *C.char) []string {
	out := make([]string, last+1)
	for v := int32(1); v <= last; v++ {
		if s := name(v); s != nil {
			out[v] = C.GoString(s)
		}
	}
	return out
}

func capitals(names []string) []string {
	for i := range names {
		names[i] = strings.ToUpper(names[i])
	}
	return names
}

// Choice is one named value of a CHOICE parameter.
type Choice struct {
	Name  string
	Value float64
}

// Param is one row of the library's parameter table, read at run time: the
// loaded library's parameters, whatever version of it is loaded.
type Param struct {
	Name        string // "accelerators": what Set and the files use
	Key         int32  // the permanent tco_param key
	Handle      HandleKind
	Type        ParamType
	Unit        string // "h", "W", "cur/kWh" (cur: the pricing table's currency), "1" for counts
	Description string
	Default     float64 // numbers and CHOICE values; 0 for TEXT; below Min, a stand-in Set also takes
	DefaultText string  // TEXT and CHOICE: the default as text; a stand-in: what it stands for
	Min, Max    float64 // inclusive bounds
	Choices     []Choice
}

// paramTable is the library's table, read once.
type paramTable struct {
	list   []Param
	byName map[string]int
	byKey  map[int32]int
}

var (
	tableOnce sync.Once
	table     paramTable
)

func params() *paramTable {
	tableOnce.Do(func() {
		n := int(C.tco_param_count())
		table.list = make([]Param, 0, n)
		table.byName = make(map[string]int, n)
		table.byKey = make(map[int32]int, n)
		for i := 0; i < n; i++ {
			var info C.tco_param_info
			info.size = C.size_t(unsafe.Sizeof(info))
			if C.tco_param_info_at(&info, C.size_t(i), nil) != 0 {
				continue
			}
			p := Param{
				Name:        C.GoString(info.name),
				Key:         int32(info.key),
				Handle:      HandleKind(info.handle),
				Type:        ParamType(info._type),
				Unit:        C.GoString(info.unit),
				Description: C.GoString(info.description),
				Default:     float64(info.default_value),
				Min:         float64(info.min_value),
				Max:         float64(info.max_value),
			}
			if info.default_text != nil {
				p.DefaultText = C.GoString(info.default_text)
			}
			for j := 0; j < int(info.choice_count); j++ {
				var name *C.char
				var value C.double
				if C.tco_param_choice_at(&name, &value, info.key, C.size_t(j), nil) == 0 {
					p.Choices = append(p.Choices, Choice{C.GoString(name), float64(value)})
				}
			}
			table.byName[p.Name] = len(table.list)
			table.byKey[p.Key] = len(table.list)
			table.list = append(table.list, p)
		}
	})
	return &table
}

// Params lists every parameter of the loaded library, in key order: name,
// key, handle, type, unit, default, bounds, description and choices.
func Params() []Param {
	t := params()
	out := make([]Param, len(t.list))
	copy(out, t.list)
	for i := range out {
		out[i].Choices = append([]Choice(nil), out[i].Choices...)
	}
	return out
}

// ParamByName is the table's row of a parameter name, or an error matching
// ErrUnknownParam.
func ParamByName(name string) (Param, error) {
	t := params()
	i, ok := t.byName[name]
	if !ok {
		return Param{}, unknownParam(name)
	}
	p := t.list[i]
	p.Choices = append([]Choice(nil), p.Choices...)
	return p, nil
}

// ChoiceValue is the value of a CHOICE parameter's named choice
// (ChoiceValue("cooling", "liquid") is 1): what Set and a sweep's values
// take, since a sweep varies a CHOICE by value as the library does, while
// the names are the form a user reads and writes (SetText, files,
// messages). A name that is no choice is refused as SetText refuses it
// (ErrRange, naming the parameter); so is a parameter that is no CHOICE
// (ErrType).
func ChoiceValue(param, choice string) (float64, error) {
	p, err := lookup(param)
	if err != nil {
		return 0, err
	}
	if p.Type != TypeChoice {
		return 0, &Error{Code: StatusType, Param: p.Key, ParamName: p.Name, Message: p.Name + " is not a choice"}
	}
	names := make([]string, 0, len(p.Choices))
	for _, c := range p.Choices {
		if c.Name == choice {
			return c.Value, nil
		}
		names = append(names, c.Name)
	}
	return 0, &Error{Code: StatusRange, Param: p.Key, ParamName: p.Name,
		Message: p.Name + " = " + strconv.Quote(choice) + " is not a choice: allowed " + strings.Join(names, ", ")}
}

// lookup is the row of a name, from the cached table.
func lookup(name string) (*Param, error) {
	t := params()
	i, ok := t.byName[name]
	if !ok {
		return nil, unknownParam(name)
	}
	return &t.list[i], nil
}

func unknownParam(name string) error {
	if len(name) > 100 {
		name = name[:100]
	}
	return &Error{Code: StatusUnknownParam, ParamName: name,
		Message: "no parameter is named \"" + name + "\""}
}
