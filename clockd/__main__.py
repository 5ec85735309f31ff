from clockd.cli import main

raise SystemExit(main())
