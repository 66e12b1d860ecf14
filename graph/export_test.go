package graph

// Exported for the external tests of the error mapping.
var (
	PresentError  = presentError
	PayloadErrors = payloadErrors
)
