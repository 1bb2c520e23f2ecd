"""No import circles: not between files, nor between packages (issue 27).

Why: a circle means neither side can be read, tested or moved without the other, and a
function-level import that only dodges one hides the same knot.  grimp sees every import,
inside functions and under TYPE_CHECKING too, so a circle cannot be hidden by deferring
the import.  Three views are checked: the files, the top-level packages, and the children
of each package (a sub-package counted as one, with all it holds).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

import grimp
import pytest

ROOTS = ("companion", "hardware", "vision", "firmware")

pytestmark = pytest.mark.lint

Graph = Mapping[str, set[str]]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*ROOTS)


def strongly_connected(graph: Graph) -> list[list[str]]:
    """The groups of nodes each reachable from every other (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    groups.append(sorted(group))
    return [g for g in groups if len(g) > 1 or g[0] in graph[g[0]]]


def shortest_circle(graph: Graph, start: str, within: set[str]) -> list[str]:
    """The shortest way from `start` back to itself through `within` (breadth first)."""
    came_from: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node]):
            if target == start:
                path = [node]
                while (before := came_from[path[-1]]) is not None:
                    path.append(before)
                return [*reversed(path), start]
            if target in within and target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise AssertionError(f"{start} is in no circle")  # strongly_connected said it was


def circles(graph: Graph) -> list[str]:
    """Each circle in words, the shortest through every node caught in one."""
    found: list[str] = []
    for group in strongly_connected(graph):
        seen: set[frozenset[str]] = set()
        for start in group:
            circle = shortest_circle(graph, start, set(group))
            if frozenset(circle) not in seen:
                seen.add(frozenset(circle))
                found.append(" -> ".join(circle))
    return found


def collapsed(graph: grimp.ImportGraph, owner_of: Mapping[str, str]) -> dict[str, set[str]]:
    """The imports between owners, each module counted as the owner it belongs to."""
    edges: dict[str, set[str]] = {owner: set() for owner in owner_of.values()}
    for module, owner in owner_of.items():
        for imported in graph.find_modules_directly_imported_by(module):
            other = owner_of.get(imported)
            if other is not None and other != owner:
                edges[owner].add(other)
    return edges


def module_graph(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def packages(graph: grimp.ImportGraph) -> Iterable[str]:
    return sorted(m for m in graph.modules if graph.find_children(m))


def children_graph(graph: grimp.ImportGraph, package: str) -> dict[str, set[str]]:
    """The package's children as nodes, a sub-package standing for all it holds."""
    prefix = f"{package}."
    owner_of = {
        module: prefix + module[len(prefix) :].split(".")[0]
        for module in graph.modules
        if module.startswith(prefix)
    }
    return collapsed(graph, owner_of)


def test_no_circle_between_files(graph):
    found = circles(module_graph(graph))
    assert not found, "import circles between files:\n" + "\n".join(found)


def test_no_circle_between_top_level_packages(graph):
    owner_of = {module: module.split(".")[0] for module in graph.modules}
    found = circles(collapsed(graph, owner_of))
    assert not found, "import circles between top-level packages:\n" + "\n".join(found)


def test_no_circle_between_the_sub_packages_of_any_package(graph):
    found = []
    for package in packages(graph):
        children = children_graph(graph, package)
        subpackages = {child for child in children if graph.find_children(child)}
        for circle in circles(children):
            # A circle of plain files is the first test's; here those with a sub-package.
            if subpackages & set(circle.split(" -> ")):
                found.append(f"in {package}: {circle}")
    assert not found, "import circles between sub-packages:\n" + "\n".join(found)


def test_a_circle_is_found_and_named():
    """The finder itself: a file circle, a self-import, and a line that is no circle."""
    knot = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(knot) == ["a -> b -> c -> a", "e -> e"]
    assert circles({"a": {"b"}, "b": set()}) == []
