"""The example notebook runs headless from top to bottom without errors."""
import nbformat
from nbclient import NotebookClient


def test_notebook_runs(root):
    nb = nbformat.read(root / "examples" / "notebook.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    assert any("reserve" in o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
