# `package require blt` as the 1998 EARL scripts say it (thesis Fig. 7.9): BLT 2.3 put its
# commands (vector, barchart, table, ...) in the global namespace; BLT 2.4 and later are
# package BLT with the commands in ::blt. This loads BLT and makes the commands the old
# scripts call reachable unqualified, leaving any global command of the same name alone,
# and accepts BLT 2.3's `vector name(size)`.
package require BLT
namespace eval :: {
    foreach earl_blt_command [namespace eval ::blt {namespace export}] {
        if {[llength [info commands ::$earl_blt_command]] == 0
                && [llength [info commands ::blt::$earl_blt_command]] == 1} {
            namespace import ::blt::$earl_blt_command
        }
    }
    unset -nocomplain earl_blt_command
}
# BLT 2.3 made a vector with `vector name(size)`; later BLTs need `vector create`. The
# vector (a variable and a command) is made in the caller's scope, as BLT makes it.
if {[namespace origin ::vector] eq "::blt::vector"} {
    rename ::vector {}
    proc ::vector {args} {
        if {[llength $args] && [lindex $args 0] ni {configure create destroy expr names op}} {
            set args [linsert $args 0 create]
        }
        uplevel 1 [list ::blt::vector {*}$args]
    }
}
package provide blt 2.3
