import sys

from catalog_inspector.main import main

sys.exit(main())
