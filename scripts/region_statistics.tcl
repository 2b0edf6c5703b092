#!/usr/bin/env tclsh8.6
# Region statistics (EARL 2.0 reference, Part III, section 9).
#
# The Tcl twin of scripts/region_statistics.py: same analysis, same output.
#
# Time spent in each region on each location, inclusive and exclusive of the region
# instances nested in it. At every exit, the time since its enter (enterptr) is added to
# the region's inclusive and exclusive time and taken off the exclusive time of the
# enclosing instance (the enter's own enterptr). Prints one table, by location, the most
# expensive regions first.
#
#     earl run scripts/region_statistics.tcl TRACE
#     TCLLIBPATH="$(python -m earl.tcl --libpath)" tclsh8.6 scripts/region_statistics.tcl TRACE
package require earl

# Fills stats with {loc region} -> {instances inclusive exclusive}.
proc region_statistics {e statsVar} {
    upvar 1 $statsVar stats
    $e reset
    while {[$e next]} {
        $e event curr
        # not an exit, or nothing open
        if {$curr(type) ne "exit" || !$curr(enterptr)} continue
        $e event enter $curr(enterptr)
        set diff [expr {$curr(time) - $enter(time)}]
        # the instance closed is the enter's (an exit naming another region still pops it)
        set key [list $curr(loc) $enter(region)]
        if {![info exists stats($key)]} {set stats($key) {0 0.0 0.0}}
        lassign $stats($key) count incl excl
        set stats($key) [list [incr count] [expr {$incl + $diff}] [expr {$excl + $diff}]]
        if {$enter(enterptr)} {
            $e event encl $enter(enterptr)
            set key [list $curr(loc) $encl(region)]
            if {![info exists stats($key)]} {set stats($key) {0 0.0 0.0}}
            lassign $stats($key) count incl excl
            set stats($key) [list $count $incl [expr {$excl - $diff}]]
        }
    }
}

if {$argc != 1} {
    puts stderr "usage: region_statistics.tcl TRACE"
    exit 1
}
if {[catch {EventTrace e -file [lindex $argv 0]} error]} {
    puts stderr "region_statistics.tcl: $error"
    exit 1
}
array set stats {}
region_statistics e stats
set width [string length region]
set rows {}
foreach key [array names stats] {
    lassign $key loc region
    set width [expr {max($width, [string length $region])}]
    lappend rows [list $loc $region {*}$stats($key)]
}
# By location, then inclusive time descending, then region: lsort is stable, so sorting
# by the least significant key first gives that order.
set rows [lsort -index 1 $rows]
set rows [lsort -index 3 -real -decreasing $rows]
set rows [lsort -index 0 -integer $rows]
puts [format "%4s  %-*s  %8s  %12s  %12s" loc $width region count "incl \[s\]" "excl \[s\]"]
foreach row $rows {
    lassign $row loc region count incl excl
    puts [format "%4d  %-*s  %8d  %12.6f  %12.6f" $loc $width $region $count $incl $excl]
}
rename e {}
