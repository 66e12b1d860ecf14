package apperr

import "time"

// NotFound reports that resource does not exist or that the caller may not see it; resource
// may be empty.
func NotFound(resource string) *Error { return &Error{Kind: KindNotFound, Resource: resource} }

// RecordNotFound reports that a record looked up by its id does not exist (what GitLab answers
// for Rails' RecordNotFound).
func RecordNotFound() *Error { return &Error{Kind: KindNotFound, Record: true} }

// NotFoundMessage is a not-found error with a sentence of its own ("Not Found" of a share a
// service refused).
func NotFoundMessage(msg string) *Error { return &Error{Kind: KindNotFound, Message: msg} }

// Unauthorized reports a missing or invalid authentication.
func Unauthorized() *Error { return &Error{Kind: KindUnauthorized} }

// UnauthorizedReason is Unauthorized with what the caller was not authorized for.
func UnauthorizedReason(reason string) *Error {
	return &Error{Kind: KindUnauthorized, Reason: reason}
}

// InvalidToken reports an expired or revoked token; description says which.
func InvalidToken(description string) *Error {
	return &Error{Kind: KindInvalidToken, Message: description}
}

// Forbidden reports that a visible resource may not be acted on; reason may be empty.
func Forbidden(reason string) *Error { return &Error{Kind: KindForbidden, Reason: reason} }

// ForbiddenMessage is a refusal worded as a sentence of its own ("You cannot ban blocked
// users.") rather than as a reason.
func ForbiddenMessage(msg string) *Error { return &Error{Kind: KindForbidden, Message: msg} }

// InsufficientScope reports a token whose scopes do not allow the request; scopes are the ones
// that would.
func InsufficientScope(scopes ...string) *Error {
	return &Error{Kind: KindScope, Scopes: scopes}
}

// Invalid reports a parameter that failed to parse: "<param> is invalid".
func Invalid(param string) *Error { return BadParam(param + " is invalid") }

// Missing reports a required parameter that was not given: "<param> is missing".
func Missing(param string) *Error { return BadParam(param + " is missing") }

// NotAllowedValue reports a parameter outside its allowed values.
func NotAllowedValue(param string) *Error { return BadParam(param + " does not have a valid value") }

// BadParam is a parameter error with a free-form message that names the parameter.
func BadParam(msg string) *Error { return &Error{Kind: KindParam, Message: msg} }

// BadRequest refuses a request for reason (may be empty), as GitLab's bad_request! does.
func BadRequest(reason string) *Error { return &Error{Kind: KindBadRequest, Reason: reason} }

// Refused refuses a request with a whole sentence that explains it ("Could not update
// refs/heads/main. Please refresh and try again."), as GitLab's services do.
func Refused(msg string) *Error { return &Error{Kind: KindBadRequest, Message: msg} }

// Validation reports model validation failures, attribute by attribute.
func Validation(fields map[string][]string) *Error {
	return &Error{Kind: KindValidation, Fields: fields}
}

// FieldError is Validation with one attribute and message.
func FieldError(field, msg string) *Error {
	return Validation(map[string][]string{field: {msg}})
}

// Unprocessable reports a change that cannot be carried out; msg may be empty.
func Unprocessable(msg string) *Error { return &Error{Kind: KindUnprocessable, Message: msg} }

// UnprocessableMessages is Unprocessable with a list of full messages (an invalid rule's
// "Name has already been taken", ...).
func UnprocessableMessages(msgs []string) *Error {
	return &Error{Kind: KindUnprocessable, Messages: msgs}
}

// Conflict reports a change that conflicts with the current state; msg may be empty.
func Conflict(msg string) *Error { return &Error{Kind: KindConflict, Message: msg} }

// ConflictMessages is Conflict with a list of full messages.
func ConflictMessages(msgs []string) *Error { return &Error{Kind: KindConflict, Messages: msgs} }

// NotAllowed reports an operation not offered for the resource; msg may be empty.
func NotAllowed(msg string) *Error { return &Error{Kind: KindNotAllowed, Message: msg} }

// PreconditionFailed reports a precondition that does not hold.
func PreconditionFailed() *Error { return &Error{Kind: KindPreconditionFailed} }

// TooLarge reports a request body over the accepted size.
func TooLarge() *Error { return &Error{Kind: KindTooLarge} }

// RateLimited reports a throttled request that may be retried after retryIn.
func RateLimited(retryIn time.Duration) *Error {
	return &Error{Kind: KindRateLimited, Message: "This endpoint has been requested too many times. Try again later.", RetryIn: retryIn}
}
