#!/usr/bin/env tclsh8.6
# Wasted time of MPI_Recv (EARL 2.0 reference, Part III, section 7).
#
# The Tcl twin of scripts/wasted_time.py: same analysis, same output.
#
# A receive posted before its matching send was started waits at least
# (enter time of MPI_Send) - (enter time of MPI_Recv). This sums that time over all
# receives made inside MPI_Recv whose message was sent inside MPI_Send, and breaks it
# down by receiving location.
#
#     earl run scripts/wasted_time.tcl TRACE
#     TCLLIBPATH="$(python -m earl.tcl --libpath)" tclsh8.6 scripts/wasted_time.tcl TRACE
package require earl

# Fills late(loc) with {late receives, seconds}; returns the total in seconds.
proc wasted_time {e lateVar} {
    upvar 1 $lateVar late
    set total 0.0
    $e reset
    while {[$e next]} {
        $e event curr
        # no enclosing region or no matching send
        if {$curr(type) ne "recv" || !$curr(enterptr) || !$curr(sendptr)} continue
        $e event recv_start $curr(enterptr)
        # e.g. received inside MPI_Bcast
        if {$recv_start(region) ne "MPI_Recv"} continue
        $e event send $curr(sendptr)
        if {!$send(enterptr)} continue
        $e event send_start $send(enterptr)
        if {$send_start(region) ne "MPI_Send"} continue
        set wasted [expr {$send_start(time) - $recv_start(time)}]
        if {$wasted > 0} {
            set total [expr {$total + $wasted}]
            if {![info exists late($curr(loc))]} {set late($curr(loc)) {0 0.0}}
            lassign $late($curr(loc)) count seconds
            set late($curr(loc)) [list [incr count] [expr {$seconds + $wasted}]]
        }
    }
    return $total
}

if {$argc != 1} {
    puts stderr "usage: wasted_time.tcl TRACE"
    exit 1
}
if {[catch {EventTrace e -file [lindex $argv 0]} error]} {
    puts stderr "wasted_time.tcl: $error"
    exit 1
}
set total [wasted_time e late]
puts [format "%s: %.6f sec wasted." [e file] $total]
set width 20
foreach loc [array names late] {
    set name [e locsym $loc]
    set label($loc) [expr {$name eq $loc ? $loc : "$loc ($name)"}]
    set width [expr {max($width, [string length $label($loc)])}]
}
if {[array size late]} {
    puts [format "  %-*s %10s %12s" $width receiver "late recvs" "wasted \[s\]"]
}
foreach loc [lsort -integer [array names late]] {
    lassign $late($loc) count seconds
    puts [format "  %-*s %10d %12.6f" $width $label($loc) $count $seconds]
}
rename e {}
