//go:build !unix

package privatefs

// restrictUmask does nothing where there is no umask.
func restrictUmask() {}
