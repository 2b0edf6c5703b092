# Helper of data_received: writes a bar chart as a PNG file (not run on its own).
#
# A gray-scale bar chart written as a PNG file with nothing but Tcl 8.6 (its zlib
# command): the chart of scripts/data_received.tcl, drawn like scripts/barchart.lua's.
#
#     source barchart.tcl
#     barchart::write chart.png {120 0 4096} ?width? ?height?
namespace eval barchart {}

proc barchart::chunk {kind body} {
    set data $kind$body
    return [binary format I [string length $body]]$data[binary format I [zlib crc32 $data]]
}

# Rows of gray levels, each preceded by PNG's filter byte 0.
proc barchart::pixels {values width height} {
    set margin 40
    set top 20
    set base [expr {$height - $margin}]
    set peak 0
    foreach v $values {set peak [expr {max($peak, $v)}]}
    set slot [expr {double($width - 2 * $margin) / max([llength $values], 1)}]
    set white [string repeat \xff $width]
    set rows {}
    for {set y 0} {$y < $height} {incr y} {
        set row $white
        if {$y >= $top && $y <= $base} {set row [string replace $row $margin $margin \x00]}
        if {$y == $base} {
            set row [string replace $row $margin [expr {$width - $margin}] \
                         [string repeat \x00 [expr {$width - 2 * $margin + 1}]]]
        }
        set i 0
        foreach v $values {
            set bar_top [expr {$base - int(floor(($base - $top) * ($peak > 0 ? double($v) / $peak : 0)))}]
            set left [expr {int(floor($margin + $i * $slot + $slot * 0.15))}]
            set right [expr {int(floor($margin + ($i + 1) * $slot - $slot * 0.15))}]
            incr i
            if {$y < $bar_top || $y >= $base || $right < $left} continue
            if {$y == $bar_top} {
                set fill [string repeat \x00 [expr {$right - $left + 1}]]
            } else {
                set fill \x00[string repeat \xa0 [expr {$right - $left - 1}]]\x00
                if {$right == $left} {set fill \x00}
            }
            set row [string replace $row $left $right $fill]
        }
        append rows \x00$row
    }
    return $rows
}

proc barchart::write {path values {width 640} {height 400}} {
    set png \x89PNG\r\n\x1a\n
    append png [chunk IHDR [binary format IIccccc $width $height 8 0 0 0 0]]
    append png [chunk IDAT [zlib compress [encoding convertto iso8859-1 [pixels $values $width $height]]]]
    append png [chunk IEND ""]
    set f [open $path wb]
    try {
        puts -nonewline $f $png
    } finally {
        close $f
    }
}
