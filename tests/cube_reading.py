"""Reading a Cube file back with pycubexr (a second implementation of the format)."""


def callpath_names(parser):
    """{cnode id: "main/step/MPI_Recv"} of every call path of the open Cube file."""
    paths = {}
    for cnode in parser.all_cnodes():
        names, node = [], cnode
        while node is not None:
            names.append(parser.get_region(node).name)
            node = node.parent
        paths[cnode.id] = "/".join(reversed(names))
    return paths
