"""What pyproject.toml cannot say: the game modules (``resources/``, beside the packages in a
checkout) go into the wheel as ``tabletop/resources/``, where an installed program finds them
(tabletop.modules.catalogue.resources_dir). Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

# every folder of resources/ is data of the package tabletop.resources (no code in them)
RESOURCES = [
    "tabletop.resources",
    *(f"tabletop.resources.{name}" for name in find_namespace_packages(where="resources")),
]

setup(
    packages=[*find_packages(include=["tabletop*", "rules_assist*"]), *RESOURCES],
    package_dir={"tabletop.resources": "resources"},
    package_data={name: ["*"] for name in RESOURCES},
    exclude_package_data={name: ["__pycache__"] for name in RESOURCES},
)
