//go:build unix

package privatefs

import "syscall"

// restrictUmask takes group and other permissions off every file the process creates.
func restrictUmask() { syscall.Umask(0o077) }
