"""Django's framework typing: the managers a model's metaclass adds, `from_queryset` classes
and a model's own `objects = SomeManager()`, reached through the model class."""

from __future__ import annotations

from pathlib import Path

from tests.index.support import build, vias

# A small stand-in for Django's own package, shaped as its files are: `Model` in
# django/db/models/base.py (whose module imports `Manager`), `Manager` made with
# `BaseManager.from_queryset(QuerySet)`.
DJANGO = {
    "django/__init__.py": "",
    "django/db/__init__.py": "",
    "django/db/models/__init__.py": (
        "from django.db.models.base import Model\n"
        "from django.db.models.manager import Manager\n"
        "from django.db.models.query import QuerySet\n"
    ),
    "django/db/models/base.py": (
        "from django.db.models.manager import Manager\n"
        "\n"
        "\n"
        "class ModelBase(type):\n"
        "    pass\n"
        "\n"
        "\n"
        "class Model(metaclass=ModelBase):\n"
        "    def save(self):\n"
        "        pass\n"
    ),
    "django/db/models/query.py": (
        "class QuerySet:\n    def filter(self, **kwargs):\n        return self\n"
    ),
    "django/db/models/manager.py": (
        "import copy\n"
        "\n"
        "from django.db.models.query import QuerySet\n"
        "\n"
        "\n"
        "class BaseManager:\n"
        "    def db_manager(self, using=None):\n"
        "        obj = copy.copy(self)\n"
        "        return obj\n"
        "\n"
        "    @classmethod\n"
        "    def from_queryset(cls, queryset_class):\n"
        "        return type('Made', (cls, queryset_class), {})\n"
        "\n"
        "\n"
        "class Manager(BaseManager.from_queryset(QuerySet)):\n"
        "    pass\n"
    ),
}

# Namesakes of the managers' methods in a file every module here reaches: an untyped `x.m()`
# is a guess among them (confidence 1/2, `via = "member"`).
DECOY = (
    "class Cache:\n"
    "    def db_manager(self, using=None):\n"
    "        pass\n"
    "\n"
    "    def filter(self, **kwargs):\n"
    "        pass\n"
    "\n"
    "    def active(self):\n"
    "        pass\n"
)


def test_a_model_of_djangos_own_repository_has_the_managers_its_metaclass_adds(
    repo: Path,
) -> None:
    db = build(
        repo,
        {
            **DJANGO,
            "app/__init__.py": "",
            "app/cache.py": DECOY,
            "app/models.py": (
                "from django.db import models\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "class User(models.Model):\n"
                "    @classmethod\n"
                "    def copy_to(cls, using):\n"
                "        return cls._base_manager.db_manager(using)\n"
                "\n"
                "\n"
                "def local(using):\n"
                "    User._default_manager.db_manager(using)\n"
                "    return User.objects.filter(name='a')\n"
            ),
            "app/views.py": (
                "from app.models import User\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "def view(using):\n"
                "    User.objects.db_manager(using)\n"
                "    return User._default_manager.filter(name='a')\n"
            ),
        },
    )
    db_manager = {("BaseManager.db_manager", 1.0, "instance")}
    filter_ = {("QuerySet.filter", 1.0, "instance")}
    assert vias(db, "app/models.py", 8, "db_manager") == db_manager  # `cls._base_manager`
    assert vias(db, "app/models.py", 12, "db_manager") == db_manager  # the class in its file
    assert vias(db, "app/models.py", 13, "filter") == filter_  # (Manager's QuerySet base)
    assert vias(db, "app/views.py", 6, "db_manager") == db_manager  # the class imported
    assert vias(db, "app/views.py", 7, "filter") == filter_


def test_a_model_deriving_from_an_outside_djangos_model_has_its_own_objects_manager(
    repo: Path,
) -> None:
    # Django is not in the repository: `models.Model` names it by import; the model's own
    # `objects = CheckManager()` (declared in it or in an abstract base) is what `objects`
    # and `_default_manager` hold. A class that is no model has no metaclass managers.
    db = build(
        repo,
        {
            "app/__init__.py": "",
            "app/cache.py": DECOY,
            "app/models.py": (
                "from django.db import models\n"
                "from django.db.models import Model\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "class CheckManager(models.Manager):\n"
                "    def active(self):\n"
                "        return self.filter(up=True)\n"
                "\n"
                "\n"
                "class Base(models.Model):\n"
                "    objects = CheckManager()\n"
                "\n"
                "\n"
                "class Check(Base):\n"
                "    pass\n"
                "\n"
                "\n"
                "class Flip(Model):\n"
                "    objects = CheckManager()\n"
                "\n"
                "\n"
                "class Plain:\n"
                "    pass\n"
            ),
            "app/views.py": (
                "from app.models import Check, Flip, Plain\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "def view():\n"
                "    Check.objects.active()\n"
                "    Check._default_manager.active()\n"
                "    Flip.objects.active()\n"
                "    Plain._default_manager.active()\n"
            ),
        },
    )
    active = {("CheckManager.active", 1.0, "instance")}
    assert vias(db, "app/views.py", 6, "active") == active
    assert vias(db, "app/views.py", 7, "active") == active
    assert vias(db, "app/views.py", 8, "active") == active
    # Not a model: a guess, as before (no class attribute of that name is known).
    assert {v for _, _, v in vias(db, "app/views.py", 9, "active")} == {"member"}


def test_a_class_made_by_from_queryset_has_the_querysets_methods_and_the_managers(
    repo: Path,
) -> None:
    db = build(
        repo,
        {
            **DJANGO,
            "app/__init__.py": "",
            "app/cache.py": DECOY,
            "app/managers.py": (
                "from django.db.models.manager import BaseManager\n"
                "from django.db.models.query import QuerySet\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "class CheckQuerySet(QuerySet):\n"
                "    def active(self):\n"
                "        return self.filter(up=True)\n"
                "\n"
                "\n"
                "CheckManager = BaseManager.from_queryset(CheckQuerySet)\n"
                "\n"
                "\n"
                "class FlipManager(BaseManager.from_queryset(CheckQuerySet)):\n"
                "    pass\n"
                "\n"
                "\n"
                "class ChildManager(CheckManager):\n"
                "    pass\n"
                "\n"
                "\n"
                "def use(using):\n"
                "    CheckManager().active()\n"
                "    FlipManager().db_manager(using)\n"
                "    ChildManager().active()\n"
                "    ChildManager().db_manager(using)\n"
            ),
        },
    )
    active = {("CheckQuerySet.active", 1.0, "instance")}
    db_manager = {("BaseManager.db_manager", 1.0, "instance")}
    assert vias(db, "app/managers.py", 23, "active") == active
    assert vias(db, "app/managers.py", 24, "db_manager") == db_manager
    assert vias(db, "app/managers.py", 25, "active") == active
    assert vias(db, "app/managers.py", 26, "db_manager") == db_manager


def test_a_models_manager_calls_return_the_model_or_its_queryset(repo: Path) -> None:
    # `get`/`create`/`first` give a model instance; `filter`, `all`, `db_manager` keep the
    # model (iterating gives its instances); a custom manager's method returning
    # `self.model(...)` (through another method) gives the model it was reached through.
    db = build(
        repo,
        {
            **DJANGO,
            "app/__init__.py": "",
            "app/cache.py": (
                "class Cache:\n    def has_perm(self, p):\n        pass\n"
                "\n    def create_user(self, name):\n        pass\n"
            ),
            "app/models.py": (
                "from django.db import models\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "class UserManager(models.Manager):\n"
                "    def _make(self, name):\n"
                "        user = self.model(name=name)\n"
                "        user.save()\n"
                "        return user\n"
                "\n"
                "    def create_user(self, name):\n"
                "        return self._make(name)\n"
                "\n"
                "\n"
                "class Person(models.Model):\n"
                "    objects = UserManager()\n"
                "\n"
                "    def has_perm(self, p):\n"
                "        pass\n"
            ),
            "app/views.py": (
                "from app.models import Person\n"
                "from app.cache import Cache\n"
                "\n"
                "\n"
                "def view(using):\n"
                "    u = Person.objects.create_user('a')\n"
                "    u.has_perm(1)\n"
                "    v = Person.objects.filter(a=1).get()\n"
                "    v.has_perm(2)\n"
                "    for w in Person.objects.all():\n"
                "        w.has_perm(3)\n"
                "    Person.objects.db_manager(using).create_user('b').has_perm(4)\n"
                "    Person._base_manager.create(name='c').has_perm(5)\n"
            ),
        },
    )
    has_perm = {("Person.has_perm", 1.0, "instance")}
    for line in (7, 9, 11, 12, 13):
        assert vias(db, "app/views.py", line, "has_perm") == has_perm, line
    assert vias(db, "app/views.py", 12, "create_user") == {
        ("UserManager.create_user", 1.0, "instance")
    }
