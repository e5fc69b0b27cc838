// The page's own words in English and French. No user-facing text lives in
// the other modules: they call t('key', {params}).
// The rules' own texts (action words, rule-set summaries sent by the server)
// are English; the built-in rule sets' summaries are translated here too.

const STRINGS = {
  en: {
    'app.title': 'Royal Game of Ur',
    'app.skip': 'Skip to the game',
    'lang.label': 'Language',
    'nav.home': 'New game',
    'nav.rules': 'Rules',

    'lobby.heading': 'Play the Royal Game of Ur',
    'lobby.intro': 'Seventeen rule sets from four thousand years of guesses: pick one, pick an opponent, and play.',
    'lobby.ruleset': 'Rule set',
    'lobby.loading': 'Loading the rule sets…',
    'lobby.rulesLink': 'Read the rules',
    'lobby.options': 'Options',
    'lobby.noOptions': 'This rule set has no options.',
    'lobby.pieces': 'Pieces per side: fewer make a shorter game.',
    'lobby.default': 'default',
    'lobby.mode': 'Opponent',
    'lobby.mode.bot': 'A bot',
    'lobby.mode.bot.hint': 'plays at once on this device',
    'lobby.mode.hotseat': 'Hot-seat',
    'lobby.mode.hotseat.hint': 'two players, one device, taking turns',
    'lobby.mode.online': 'A friend online',
    'lobby.mode.online.hint': 'you get a link to send',
    'lobby.level': 'Bot level',
    'lobby.level.n': 'Level {n}',
    'lobby.level.1': 'Level 1: a beginner',
    'lobby.level.5': 'Level 5: strong',
    'lobby.level.perfect': 'Perfect play (from a solved table)',
    'lobby.seat': 'Your side',
    'lobby.seat.light': 'Light (moves first)',
    'lobby.seat.dark': 'Dark',
    'lobby.seat.random': 'Chosen by chance',
    'lobby.custom': 'Your own rule-set file',
    'lobby.custom.hint': 'A rule-set file (TOML) like those in the rulesets folder; the server checks it.',
    'lobby.custom.loaded': 'Playing your file {name}',
    'lobby.custom.clear': 'Use a built-in rule set',
    'lobby.custom.tooLarge': 'That file is too large ({size} bytes; at most {max}).',
    'lobby.start': 'Start the game',
    'lobby.position': 'Start position',
    'lobby.position.hint': 'A position string such as l:469.1,2d; empty for the usual start.',
    'lobby.position.clear': 'Usual start',
    'game.position': 'Position',
    'game.position.copy': 'Copy',
    'game.position.copied': 'Position copied',
    'lobby.starting': 'Starting…',
    'lobby.error': 'The game could not start: {message}',
    'lobby.resume': 'Your games in progress',
    'lobby.resume.item': '{rules}, {mode}',
    'lobby.forget': 'Forget',

    'family.race': 'Race games',
    'family.bens': 'Marker games',
    'family.tower': 'Tower games',
    'family.custom': 'Your rule set',

    'mode.bot': 'against a bot',
    'mode.hotseat': 'hot-seat',
    'mode.online': 'online',

    'game.loading': 'Connecting to the game…',
    'game.notFound': 'There is no such game. It may have been mistyped.',
    'game.board': 'Board',
    'game.roll': 'Roll',
    'game.rollKey': 'Roll the dice (R or Space)',
    'game.hint': 'Hint',
    'game.hintKey': 'Show each move with its win chance (H)',
    'game.rules': 'Rules',
    'game.path': 'Show the path',
    'game.pathKey': 'Draw your pieces\' route on the board (P)',
    'game.record': 'Download the game record',
    'game.newGame': 'New game',
    'game.rematch': 'Play again',
    'game.cancel': 'Cancel',
    'game.choices': 'Your choice',
    'game.allMoves': 'All moves in words',
    'game.log': 'Moves',
    'game.log.empty': 'No move yet.',
    'game.log.rolled': '{side} rolled {value}',
    'game.log.rolledNoMove': '{side} rolled {value}: no move, the turn passes',
    'game.log.rolledAgain': '{side} rolled {value} and rolls again',
    'game.log.moved': '{side}: {text}',
    'game.log.started': 'The game begins: {rules}.',
    'game.log.won': '{side} wins.',
    'game.log.draw': 'The game is drawn.',
    'game.notes': 'On the table',
    'game.share': 'Invite a friend',
    'game.share.invite': 'Send this link to your opponent: it lets them play the other side.',
    'game.share.watch': 'Anyone with this link can watch.',
    'game.share.copy': 'Copy',
    'game.share.copied': 'Copied',
    'game.share.inviteLabel': 'Invitation link',
    'game.share.watchLabel': 'Watch link',
    'game.you': 'you',
    'game.bot': 'bot',
    'game.human': 'player',
    'game.connected': 'connected',
    'game.disconnected': 'disconnected',
    'game.waitingJoin': 'not here yet',
    'game.countdown': 'disconnected: {time} left to come back',
    'game.offline': 'Connection lost: reconnecting…',
    'game.reconnected': 'Connected again.',
    'game.watching': 'You are watching this game.',
    'game.hints.heading': 'Win chance of each move',
    'game.hints.table': 'Exact, from the solved table',
    'game.hints.search': 'Estimated by a search',
    'game.hints.none': 'No hint for this position.',
    'game.hints.best': 'best',
    'game.keys': 'Keys: Tab to a piece, Enter to pick it and Enter on a lit square to move; R or Space rolls; H asks for a hint; P shows the path; Escape cancels.',

    'status.yourRoll': 'Your turn: roll the dice.',
    'status.yourMove': 'Your turn: {throw}pick a piece, then where it goes.',
    'status.yourChoice': 'Your turn: {throw}choose below.',
    'status.sideRoll': '{side} to roll.',
    'status.sideMove': '{side} to move{throw}.',
    'status.sideChoice': '{side} to choose{throw}.',
    'status.hotRoll': '{side}\'s turn: roll the dice.',
    'status.hotMove': '{side}\'s turn: {throw}pick a piece, then where it goes.',
    'status.hotChoice': '{side}\'s turn: {throw}choose below.',
    'status.botThinking': '{side} is thinking…',
    'status.waitFor': 'Waiting for {side}.',
    'status.waitReconnect': 'Waiting for {side} to reconnect: {time}.',
    'status.waitJoin': 'Waiting for your friend to open the invitation link.',
    'status.throw': 'rolled {value}: ',
    'status.throwShort': ' (rolled {value})',
    'status.youWin': 'You win!',
    'status.youLose': '{side} wins.',
    'status.sideWins': '{side} wins.',
    'status.draw': 'The game is drawn.',
    'status.abandoned': '{side} did not come back in time: {winner} wins.',
    'status.abandonedDraw': 'The game was abandoned.',
    'status.selected': 'Pick where it goes, or another piece.',

    'side.light': 'Light',
    'side.dark': 'Dark',

    'spot.reserve': '{side}\'s pieces waiting to enter',
    'a11y.pieces': '{n} {side} piece(s)',
    'board.reserve': '{side} to enter',
    'board.off': '{side} off',
    'board.lost': '{side} lost',
    'a11y.stack': 'a stack of {n} under {side}',
    'a11y.canMove': 'can move',
    'a11y.moveHere': 'move here',
    'spot.off': '{side}\'s pieces borne off',

    'rules.heading': 'Rules: {name}',
    'rules.back': 'Back to the game',
    'rules.home': 'Back',
    'rules.family': 'Family: {family}',
    'rules.summary': 'The game in a few words',
    'rules.path': 'The path',
    'rules.path.intro': 'Each side\'s pieces enter at 1 and follow the numbers. A square numbered twice is crossed twice.',
    'rules.path.side': '{side}\'s path',
    'rules.facts': 'On this board',
    'rules.facts.intro': 'Squares are numbered along {side}\'s path, as in the drawing below; the other side\'s are their mirror images.',
    'rules.fact.pieces': '{n} pieces each.',
    'rules.fact.path': 'Each side\'s path is {n} squares long.',
    'rules.fact.sharedPath': '{n} of them are shared with the other side: that is where pieces meet.',
    'rules.fact.safe': 'Safe squares, where a piece cannot be taken: {squares}.',
    'rules.fact.extra_roll': 'Landing on {squares} gives another roll.',
    'rules.fact.shared': 'Squares that hold pieces of both sides at once: {squares}.',
    'rules.fact.stop': 'A move may not pass {squares}.',
    'rules.fact.refuge': 'The refuge: {squares}.',
    'rules.fact.twins': 'The Mighty Twins\' squares: {squares}.',
    'rules.fact.oracle': 'The Oracle\'s squares: {squares}.',
    'rules.fact.warrior': 'The Warrior\'s path: {squares}.',
    'rules.options': 'Options',
    'rules.marks': 'Squares',
    'rules.play': 'Play this rule set',
    'rules.englishOnly': '',

    'mark.rosette': 'rosette',
    'mark.eyes': 'eyes',
    'mark.five': 'five dots',
    'mark.cross': 'cross',
    'mark.twelve': 'twelve dots',
    'mark.conversion': 'conversion square',
    'mark.passage': 'passage (four fives)',

    'error.bad_message': 'The server did not understand that message.',
    'error.too_large': 'That message was too large.',
    'error.not_your_turn': 'It is not your turn.',
    'error.stale': 'The board had changed: try again.',
    'error.illegal': 'That move is not allowed.',
    'error.watcher': 'Watchers cannot play.',
    'error.rate_limited': 'Too fast: wait a moment.',
    'error.no_hint': 'No hint here: hints are for games against a bot.',
    'error.unknown_game': 'There is no such game.',
    'error.bad_token': 'That link\'s key is wrong: you are watching.',
    'error.network': 'The server cannot be reached.',
  },

  fr: {
    'app.title': 'Jeu royal d\'Ur',
    'app.skip': 'Aller au jeu',
    'lang.label': 'Langue',
    'nav.home': 'Nouvelle partie',
    'nav.rules': 'Règles',

    'lobby.heading': 'Jouer au jeu royal d\'Ur',
    'lobby.intro': 'Dix-sept règles, fruits de quatre mille ans de suppositions : choisissez-en une, choisissez un adversaire, et jouez.',
    'lobby.ruleset': 'Règle du jeu',
    'lobby.loading': 'Chargement des règles…',
    'lobby.rulesLink': 'Lire les règles',
    'lobby.options': 'Options',
    'lobby.noOptions': 'Cette règle n\'a pas d\'options.',
    'lobby.pieces': 'Pions par camp : moins de pions, partie plus courte.',
    'lobby.default': 'par défaut',
    'lobby.mode': 'Adversaire',
    'lobby.mode.bot': 'Un robot',
    'lobby.mode.bot.hint': 'joue tout de suite sur cet appareil',
    'lobby.mode.hotseat': 'À tour de rôle',
    'lobby.mode.hotseat.hint': 'deux joueurs sur un même appareil',
    'lobby.mode.online': 'Un ami en ligne',
    'lobby.mode.online.hint': 'vous recevez un lien à lui envoyer',
    'lobby.level': 'Niveau du robot',
    'lobby.level.n': 'Niveau {n}',
    'lobby.level.1': 'Niveau 1 : débutant',
    'lobby.level.5': 'Niveau 5 : fort',
    'lobby.level.perfect': 'Jeu parfait (table résolue)',
    'lobby.seat': 'Votre camp',
    'lobby.seat.light': 'Clair (joue en premier)',
    'lobby.seat.dark': 'Foncé',
    'lobby.seat.random': 'Tiré au sort',
    'lobby.custom': 'Votre propre fichier de règles',
    'lobby.custom.hint': 'Un fichier de règles (TOML) comme ceux du dossier rulesets ; le serveur le vérifie.',
    'lobby.custom.loaded': 'Partie avec votre fichier {name}',
    'lobby.custom.clear': 'Revenir aux règles intégrées',
    'lobby.custom.tooLarge': 'Ce fichier est trop gros ({size} octets ; au plus {max}).',
    'lobby.start': 'Commencer la partie',
    'lobby.position': 'Position de départ',
    'lobby.position.hint': 'Une chaîne de position comme l:469.1,2d ; vide pour le départ habituel.',
    'lobby.position.clear': 'Départ habituel',
    'game.position': 'Position',
    'game.position.copy': 'Copier',
    'game.position.copied': 'Position copiée',
    'lobby.starting': 'Lancement…',
    'lobby.error': 'La partie n\'a pas pu commencer : {message}',
    'lobby.resume': 'Vos parties en cours',
    'lobby.resume.item': '{rules}, {mode}',
    'lobby.forget': 'Oublier',

    'family.race': 'Jeux de course',
    'family.bens': 'Jeux de marqueurs',
    'family.tower': 'Jeux de tours',
    'family.custom': 'Votre règle',

    'mode.bot': 'contre un robot',
    'mode.hotseat': 'à tour de rôle',
    'mode.online': 'en ligne',

    'game.loading': 'Connexion à la partie…',
    'game.notFound': 'Cette partie n\'existe pas. Le lien est peut-être mal recopié.',
    'game.board': 'Plateau',
    'game.roll': 'Lancer',
    'game.rollKey': 'Lancer les dés (R ou Espace)',
    'game.hint': 'Conseil',
    'game.hintKey': 'Montrer chaque coup avec sa chance de gagner (H)',
    'game.rules': 'Règles',
    'game.path': 'Montrer le parcours',
    'game.pathKey': 'Dessiner le parcours de vos pions sur le plateau (P)',
    'game.record': 'Télécharger la partie',
    'game.newGame': 'Nouvelle partie',
    'game.rematch': 'Rejouer',
    'game.cancel': 'Annuler',
    'game.choices': 'Votre choix',
    'game.allMoves': 'Tous les coups en toutes lettres',
    'game.log': 'Coups',
    'game.log.empty': 'Aucun coup pour l\'instant.',
    'game.log.rolled': '{side} fait {value}',
    'game.log.rolledNoMove': '{side} fait {value} : aucun coup, le tour passe',
    'game.log.rolledAgain': '{side} fait {value} et relance',
    'game.log.moved': '{side} : {text}',
    'game.log.started': 'La partie commence : {rules}.',
    'game.log.won': '{side} gagne.',
    'game.log.draw': 'Partie nulle.',
    'game.notes': 'Sur la table',
    'game.share': 'Inviter un ami',
    'game.share.invite': 'Envoyez ce lien à votre adversaire : il lui permet de jouer l\'autre camp.',
    'game.share.watch': 'Toute personne ayant ce lien peut regarder.',
    'game.share.copy': 'Copier',
    'game.share.copied': 'Copié',
    'game.share.inviteLabel': 'Lien d\'invitation',
    'game.share.watchLabel': 'Lien pour regarder',
    'game.you': 'vous',
    'game.bot': 'robot',
    'game.human': 'joueur',
    'game.connected': 'connecté',
    'game.disconnected': 'déconnecté',
    'game.waitingJoin': 'pas encore là',
    'game.countdown': 'déconnecté : encore {time} pour revenir',
    'game.offline': 'Connexion perdue : reconnexion…',
    'game.reconnected': 'De nouveau connecté.',
    'game.watching': 'Vous regardez cette partie.',
    'game.hints.heading': 'Chance de gagner de chaque coup',
    'game.hints.table': 'Exacte, d\'après la table résolue',
    'game.hints.search': 'Estimée par une recherche',
    'game.hints.none': 'Pas de conseil pour cette position.',
    'game.hints.best': 'meilleur',
    'game.keys': 'Touches : Tab jusqu\'à un pion, Entrée pour le choisir, Entrée sur une case éclairée pour jouer ; R ou Espace lance ; H demande un conseil ; P montre le parcours ; Échap annule.',

    'status.yourRoll': 'À vous : lancez les dés.',
    'status.yourMove': 'À vous : {throw}choisissez un pion, puis sa destination.',
    'status.yourChoice': 'À vous : {throw}choisissez ci-dessous.',
    'status.sideRoll': '{side} doit lancer.',
    'status.sideMove': '{side} doit jouer{throw}.',
    'status.sideChoice': '{side} doit choisir{throw}.',
    'status.hotRoll': 'Au tour de {side} : lancez les dés.',
    'status.hotMove': 'Au tour de {side} : {throw}choisissez un pion, puis sa destination.',
    'status.hotChoice': 'Au tour de {side} : {throw}choisissez ci-dessous.',
    'status.botThinking': '{side} réfléchit…',
    'status.waitFor': 'En attente de {side}.',
    'status.waitReconnect': 'En attente du retour de {side} : {time}.',
    'status.waitJoin': 'En attente de votre ami : il doit ouvrir le lien d\'invitation.',
    'status.throw': '{value} aux dés : ',
    'status.throwShort': ' ({value} aux dés)',
    'status.youWin': 'Vous avez gagné !',
    'status.youLose': '{side} gagne.',
    'status.sideWins': '{side} gagne.',
    'status.draw': 'Partie nulle.',
    'status.abandoned': '{side} n\'est pas revenu à temps : {winner} gagne.',
    'status.abandonedDraw': 'La partie a été abandonnée.',
    'status.selected': 'Choisissez la destination, ou un autre pion.',

    'side.light': 'Clair',
    'side.dark': 'Foncé',

    'spot.reserve': 'pions de {side} en attente d\'entrer',
    'a11y.pieces': '{n} pion(s) {side}',
    'board.reserve': '{side} à entrer',
    'board.off': '{side} sortis',
    'board.lost': '{side} perdus',
    'a11y.stack': 'une pile de {n} tenue par {side}',
    'a11y.canMove': 'peut avancer',
    'a11y.moveHere': 'aller ici',
    'spot.off': 'pions de {side} sortis',

    'rules.heading': 'Règles : {name}',
    'rules.back': 'Retour à la partie',
    'rules.home': 'Retour',
    'rules.family': 'Famille : {family}',
    'rules.summary': 'Le jeu en quelques mots',
    'rules.path': 'Le parcours',
    'rules.path.intro': 'Les pions de chaque camp entrent en 1 et suivent les numéros. Une case numérotée deux fois est traversée deux fois.',
    'rules.path.side': 'Parcours de {side}',
    'rules.facts': 'Sur ce plateau',
    'rules.facts.intro': 'Les cases sont numérotées le long du parcours de {side}, comme sur le dessin ci-dessous ; celles de l\'autre camp en sont le reflet.',
    'rules.fact.pieces': '{n} pions par camp.',
    'rules.fact.path': 'Le parcours de chaque camp compte {n} cases.',
    'rules.fact.sharedPath': '{n} d\'entre elles sont communes aux deux camps : c\'est là que les pions se rencontrent.',
    'rules.fact.safe': 'Cases sûres, où un pion ne peut pas être pris : {squares}.',
    'rules.fact.extra_roll': 'S\'arrêter en {squares} fait rejouer.',
    'rules.fact.shared': 'Cases qui accueillent en même temps des pions des deux camps : {squares}.',
    'rules.fact.stop': 'Un coup ne peut pas dépasser {squares}.',
    'rules.fact.refuge': 'Le refuge : {squares}.',
    'rules.fact.twins': 'Les cases des Jumeaux puissants : {squares}.',
    'rules.fact.oracle': 'Les cases de l\'Oracle : {squares}.',
    'rules.fact.warrior': 'Le chemin du Guerrier : {squares}.',
    'rules.options': 'Options',
    'rules.marks': 'Cases',
    'rules.play': 'Jouer avec cette règle',
    'rules.englishOnly': 'Les options sont décrites en anglais, comme dans le moteur.',

    'mark.rosette': 'rosette',
    'mark.eyes': 'yeux',
    'mark.five': 'cinq points',
    'mark.cross': 'croix',
    'mark.twelve': 'douze points',
    'mark.conversion': 'case de conversion',
    'mark.passage': 'passage (quatre cinq)',

    'error.bad_message': 'Le serveur n\'a pas compris ce message.',
    'error.too_large': 'Ce message était trop long.',
    'error.not_your_turn': 'Ce n\'est pas votre tour.',
    'error.stale': 'Le plateau avait changé : recommencez.',
    'error.illegal': 'Ce coup n\'est pas permis.',
    'error.watcher': 'Les spectateurs ne peuvent pas jouer.',
    'error.rate_limited': 'Trop vite : attendez un instant.',
    'error.no_hint': 'Pas de conseil ici : les conseils sont pour les parties contre un robot.',
    'error.unknown_game': 'Cette partie n\'existe pas.',
    'error.bad_token': 'La clé de ce lien est fausse : vous regardez la partie.',
    'error.network': 'Le serveur est injoignable.',
  },
};

// Side names the rule sets use, in French. Other names pass through.
const SIDE_NAMES_FR = {
  Light: 'Clair', Dark: 'Foncé', Black: 'Noir', White: 'Blanc', Red: 'Rouge', Blue: 'Bleu',
  'Player A': 'Joueur A', 'Player B': 'Joueur B',
};

// The built-in rule sets in French: the summary each rules page and the lobby
// show. The English comes from the server (`GET /api/rules`).
const SUMMARIES_FR = {
  'finkel': 'Les règles modernes les plus jouées : 7 pions, quatre dés binaires, le parcours de Bell en 14 cases, des rosettes qui protègent et font rejouer.',
  'masters': '7 pions, trois dés binaires (aucune marque compte 4), le parcours Masters en 16 cases ; les rosettes font rejouer mais ne protègent pas.',
  'blitz': 'Une partie rapide : 5 pions, quatre dés binaires, le parcours Masters, des rosettes qui ne protègent pas ; une rosette ou une prise fait rejouer.',
  'aseb': 'Le plateau d\'Aseb en 3 × 12 : 5 pions, quatre dés binaires, un parcours de 16 cases dont les 12 cases de la rangée du milieu sont communes ; les rosettes protègent et font rejouer.',
  'v1-simple': 'Une simple course sur le parcours de 14 cases : les rosettes protègent et accueillent autant de pions des deux camps qu\'on veut ; un 0 ne déplace rien.',
  'v1-named-birds': 'Cinq oiseaux nommés (Hirondelle, Oiseau de tempête, Corbeau, Coq, Aigle) appelés dans l\'ordre : annoncez « Déplacer » ou « Appeler », puis lancez.',
  'walker-cyningstan': 'Parcours de 16 cases, trois dés binaires (aucune marque compte 4) ; les cases marquées protègent ; un 4 permet, si on le veut, de relancer.',
  'ludens-planet': 'Parcours de 14 cases, trois dés binaires (0 : pas de déplacement) ; arrêt obligatoire sur les rosettes ; on rejoue sur une rosette et après une prise ; seule la rosette centrale est partagée.',
  'regency-conventional': 'Parcours de 16 cases, trois dés binaires (aucune marque compte 4) ; les rosettes protègent et font rejouer.',
  'regency-murray': 'Comme les règles Regency habituelles, sur le parcours aller-retour de 27 cases de Murray.',
  'regency-british-museum': '5 pions, quatre dés binaires (0 : pas de déplacement), le parcours de 14 cases ; les rosettes protègent et font rejouer.',
  'regency-bell': 'La table de lancers de Bell sur le parcours de 14 cases : seules trois marques font entrer un pion (sur la case 5) ; la plupart des lancers font rejouer ; une cagnotte de paris.',
  'bens-ur': 'Course de 7 marqueurs par camp sur un parcours aller-retour de 23 cases (Noir est le camp clair, Blanc le foncé) ; trois osselets binaires, un 0 est un saut. Les marqueurs entrent vierges et deviennent pointés sur une case de conversion ; un marqueur vierge ne peut pas dépasser la seconde. Seuls les marqueurs de même face se prennent (retour à la maison, vierges) ; les rosettes protègent et en accueillent deux ; les passages et les cases « 4 » accueillent un vierge et un pointé ; les « 4 yeux » et un lancer nul donnent un tour gratuit. Sortez les sept pour gagner.',
  'ludens-akalandung': 'La course Ludens Planet (7 pions, trois osselets binaires, parcours de 14 cases, les rosettes 4, 8 et 14 font rejouer, on ne dépasse pas une rosette, les prises renvoient au départ, la rosette 8 est partagée) avec trois pouvoirs : les Jumeaux puissants (deux pions qui se retrouvent en 5 avancent ensemble et prennent tout ; sans pouvoir en 7 et 10, séparés en 13), le Chemin du guerrier (un pion entré en 2 gagne en atteignant 14 par les cases du guerrier) et la Vision de l\'oracle (des pions en 1, 3 et 11 renvoient chez eux les pions adverses et font rejouer). Sortez les sept, ou ramenez le guerrier, pour gagner.',
  'ravensburg-1977': 'Pas de course : il faut prendre tous les jetons adverses. 10 jetons par camp entrent depuis la réserve ; un dé à six faces, de 1 à 5 on avance, un 6 passe. Se poser sur une pile adverse la capture : les jetons adverses dessous deviennent prisonniers et voyagent avec elle (on peut en laisser sur la bande du milieu, ce qui les libère). A5 est un refuge ; en A6 les prisonniers sont éliminés et le jeton devient rouge ; les jetons rouges circulent dans les deux sens de M1 à A6. On gagne quand l\'adversaire n\'a plus de jeton en réserve ni de pile ; 200 tours sans progrès ou une troisième répétition font partie nulle.',
  'vizier-4-pyramids': 'Le jeu de tours de Ravensburger avec quatre dés pyramidaux (1 à 4 pointes marquées : on avance d\'autant ; aucune : relancer ou avancer de 5) et des vizirs à la place des jetons rouges. 10 jetons par camp entrent depuis la réserve ; se poser sur une pile adverse en fait des prisonniers, qui voyagent toujours avec leur preneur. Sur la dernière case les prisonniers sont expulsés et le jeton devient vizir, qui circule dans les deux sens sur la bande du milieu. On gagne en expulsant tous les jetons adverses (ou quand l\'adversaire ne tient plus rien) ; les longues impasses et les répétitions font partie nulle.',
  'guard-d6': 'Le jeu de tours de Ravensburger simplifié : un dé à six faces, de 1 à 5 on avance, un 6 passe ; une pile compte au plus cinq pions. 10 pions par camp entrent de l\'extérieur ; se poser sur une pile adverse en fait des prisonniers, toujours emportés. À la sortie les prisonniers sont retirés et le pion devient garde, qui circule dans les deux sens sur la bande du milieu, même chargé. On gagne en faisant prisonniers tous les pions adverses ; les longues impasses et les répétitions font partie nulle.',
};

const KEY = 'ur.lang';
let current = pick();

function pick() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch (_) { /* storage off */ }
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of langs) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (STRINGS[short]) return short;
  }
  return 'en';
}

export const LANGS = [['en', 'English'], ['fr', 'Français']];

export function lang() { return current; }

export function setLang(l) {
  if (!STRINGS[l]) return;
  current = l;
  try { localStorage.setItem(KEY, l); } catch (_) { /* storage off */ }
  document.documentElement.lang = l;
}

/** The string `key` in the current language, with `{name}` filled from params. */
export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A side's name in the current language (the rule set's own name, translated when known). */
export function sideName(view, key) {
  const side = view && view.sides ? view.sides.find((s) => s.key === key) : null;
  const name = side ? side.name : t('side.' + key);
  if (current === 'fr') return SIDE_NAMES_FR[name] || name;
  return name;
}

/** A built-in rule set's summary in the current language, else the server's text. */
export function summary(id, english) {
  if (current === 'fr' && SUMMARIES_FR[id]) return SUMMARIES_FR[id];
  return english || '';
}

/** Every key of the English table has a French string (checked by the browser tests). */
export function missing() {
  const out = [];
  for (const l of Object.keys(STRINGS)) {
    for (const k of Object.keys(STRINGS.en)) if (!(k in STRINGS[l])) out.push(l + ':' + k);
  }
  return out;
}

document.documentElement.lang = current;
