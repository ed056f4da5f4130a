"""Builds the optional native cores (Rust via setuptools-rust) with the package: Zavandor's (native/)
and Shuluri Viadal's (grimoire/games/shuluri/native/, partial: what it has not ported runs on Python).

Without a Rust toolchain the install still succeeds: everything runs on the Python engine, and one
line says so. Metadata lives in pyproject.toml; this file only declares the extension.
"""

import shutil
import sys

from setuptools import setup

rust_extensions = []
if shutil.which("cargo"):
    from setuptools_rust import Binding, RustExtension

    for module, crate in (("grimoire.games.zavandor._native", "native"),
                          ("grimoire.games.shuluri._native", "grimoire/games/shuluri/native")):
        rust_extensions.append(RustExtension(
            module,
            path=f"{crate}/Cargo.toml",
            binding=Binding.PyO3,
            features=["python"],
            args=["--locked"],
            debug=False,          # editable installs too: the native core is only worth having optimized
            optional=True,        # a failed build leaves the Python engine, never a failed install
        ))
elif any(cmd in sys.argv for cmd in ("bdist_wheel", "editable_wheel", "build_ext", "develop", "install")):
    # (pip runs this file for metadata too: say it once, when building)
    print("grimoire: no Rust toolchain (cargo) found: the native cores are not built; "
          "every game runs on the Python engine", file=sys.stderr)

setup(rust_extensions=rust_extensions, zip_safe=False)
