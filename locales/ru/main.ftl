# Hark — русский. Каждая строка интерфейса берётся отсюда; ключи те же, что в английском каталоге.

app-name = Hark
language-name = Русский
app-title = Hark — вопросы от ваших агентов
pending-badge = { $count ->
    [one] { $count } вопрос ждёт
    [few] { $count } вопроса ждут
   *[many] { $count } вопросов ждут
}

connection-live = На связи: новые вопросы появляются сразу
connection-reconnecting = Переподключение…
connection-offline = Нет связи: скоро попробуем снова
connection-connecting = Подключение…

nav-inbox = Входящие
skip-to-content = Перейти к содержимому

home-waiting-heading = Ждут вашего ответа
home-history-heading = История
home-empty-pending = Всё разобрано: ничего не ждёт ответа. Новые вопросы от агентов появятся здесь.
home-empty-history = Отвеченных вопросов пока нет.
home-loading = Загрузка вопросов…
home-question-count = { $count ->
    [one] { $count } вопрос
    [few] { $count } вопроса
   *[many] { $count } вопросов
}

status-pending = Ждёт ответа
status-answered = Отвечен
status-declined = Пропущен
status-timeout = Время вышло
status-cancelled = Отозван

question-loading = Загрузка вопроса…
question-not-found = Такого вопроса нет, или он больше не хранится.
question-back = Назад во входящие
question-abandoned = Агент перестал ждать этот ответ. Ответить всё ещё можно: ответ сохранится, и агент получит его, когда спросит снова.
question-via-client = в окне самого агента
question-via-push = кнопкой в уведомлении
question-via-rule = по сохранённому правилу
question-via-channel = в { $channel }
note-orphan = после перезапуска Hark агент не вернулся
note-late = агент перестал ждать, и никто не ответил вовремя
note-chosen-by-timeout = выбрано по истечении времени: ответа не было, поэтому отправлен рекомендуемый вариант
question-option-recommended = Рекомендуется
question-other-label = Другое (свой ответ)
question-other-placeholder = Введите ответ…
image-add = Добавить изображение
image-hint = или вставьте либо перетащите изображения сюда
image-alt = Изображение { $n }
image-remove = Убрать изображение { $n }
image-too-many = В одном ответе не больше { $max } изображений.
image-too-large = { $name } весит { $whole },{ $tenths } МБ, а изображение может весить не больше { $max } МБ.
image-wrong-type = { $name } — не изображение PNG, JPEG, WebP или GIF.
image-unreadable = Не удалось прочитать { $name }.
answer-images = { $count ->
    [one] { $count } изображение
    [few] { $count } изображения
   *[many] { $count } изображений
}
question-submit = Отправить ответ
question-submitting = Отправка…
question-reading-images = Чтение изображений…
question-submit-failed = Ответ не принят. { $reason }
question-closed-answered = На этот вопрос уже ответили.
question-closed-declined = Этот вопрос пропустили.
question-closed-timeout = Время на ответ истекло раньше, чем кто-то ответил.
question-closed-cancelled = Агент отозвал этот вопрос.
question-your-answer = Ответ: { $answer }
question-note = Примечание: { $note }

not-found-title = Страница не найдена
not-found-body = По этому адресу ничего нет.
question-skip = Пропустить вопрос…
question-skip-note = Почему вы его пропускаете? (необязательно, агент это увидит)
question-skip-confirm = Пропустить
question-keys-hint = Клавиши: 1–9 — выбор · Enter — отправить · Esc — назад
question-needs-answer = Выберите вариант или напишите ответ.
question-deadline = { $minutes ->
    [one] Срок истекает через { $minutes } минуту
    [few] Срок истекает через { $minutes } минуты
   *[other] Срок истекает через { $minutes } минут
}
question-deadline-soon = Срок истекает меньше чем через минуту
age-just-now = только что
age-minutes = { $count } мин назад
age-hours = { $count } ч назад
age-days = { $count ->
    [one] { $count } день назад
    [few] { $count } дня назад
   *[many] { $count } дней назад
}
home-unknown-source = Другие агенты
tell-summary = Сказать агенту…
tell-help = Агент получит сообщение вместе со следующим ответом от Hark, а в Claude Code — после своего следующего шага.
tell-placeholder = Например: используй тестовую базу данных, а не рабочую.
tell-send = Отправить агенту
tell-waiting = Ждёт агента
tell-delivered = Доставлено
tell-invalid = Напишите сообщение длиной до 4000 символов.
history-filter-label = Показать
history-filter-all = Все
history-search-label = Поиск по истории
history-search-placeholder = Искать в вопросах и ответах…
history-no-match = В истории ничего не найдено.
question-show-raw = Показать исходный JSON
nav-settings = Настройки
settings-heading = Настройки
settings-timeout = Лимит времени по умолчанию (секунды)
settings-timeout-help = Сколько вопрос ждёт ответа, прежде чем время выйдет. 0 — ждать сколько угодно. Агент может задать свой лимит.
settings-timeout-invalid = Лимит времени — целое число секунд от 0 до 2592000 (30 дней).
settings-remind = Интервал напоминаний (секунды)
settings-remind-help = С таким интервалом Hark снова напоминает о вопросе, который ещё ждёт ответа. 0 — без напоминаний.
settings-remind-invalid = Интервал напоминаний — целое число секунд от 0 до 86400 (сутки).
settings-typing-grace = Держать вопрос открытым, пока вы пишете (секунды сверх срока)
settings-typing-grace-help = Пока вы пишете ответ, срок вопроса ждёт вас: он истекает через минуту после последнего нажатия клавиши, но не позже чем через столько секунд после исходного срока. 0 — срок закрывает вопрос, даже если вы пишете.
settings-typing-grace-invalid = Нужно целое число секунд от 0 до 86400 (сутки).
settings-notification = Уведомление на рабочем столе, когда приходит вопрос
settings-auto-open = Открывать браузер, когда приходит вопрос, а страница не открыта
settings-sound = Короткий звук, когда приходит вопрос
settings-save = Сохранить настройки
settings-saved = Сохранено. Все открытые страницы уже используют новые настройки.
settings-save-failed = Не удалось сохранить настройки; подробности в журнале демона.
attention-title = { $count ->
    [one] ({ $count }) Вопрос ждёт ответа
    [few] ({ $count }) Вопросы ждут ответа
   *[many] ({ $count }) Вопросы ждут ответа
}
attention-notification-title = { $count ->
    [one] У агента есть вопрос
    [few] У агентов { $count } вопроса
   *[many] У агентов { $count } вопросов
}
attention-notification-open = Открыть вопрос
attention-notification-open-all = Открыть вопросы
attention-enable-notifications = Включить уведомления
settings-port = Порт
settings-port-help = Порт, на котором работает демон. Вступает в силу после перезапуска демона; HARK_PORT и --port важнее.
settings-port-invalid = Порт — целое число от 1 до 65535.
settings-orphan = Отзывать брошенные вопросы через (секунды)
settings-orphan-help = Если после перезапуска агент не вернётся за это время, его вопрос будет отозван.
settings-orphan-invalid = Нужно целое число секунд от 1 до 86400 (сутки).
settings-late = Держать вопрос открытым после того, как агент перестал ждать (секунды)
settings-late-help = Если вызов агента отменён или его программа завершилась, на ответ остаётся столько времени; агент получит ответ, когда спросит снова. 0 — отзывать вопрос сразу.
settings-late-invalid = Нужно целое число секунд от 0 до 86400 (сутки).
settings-history-days = Хранить историю (дни)
settings-history-days-help = Закрытые вопросы старше этого срока удаляются из истории.
settings-history-days-invalid = Историю можно хранить от 1 до 3650 дней.
settings-history-max = Хранить не больше (вопросов)
settings-history-max-help = Хранится не больше стольких закрытых вопросов, начиная с новых.
settings-history-max-invalid = Размер истории — целое число от 1 до 1000000.

prefs-language = Язык
prefs-theme = Тема
prefs-apply = Применить
theme-system = Как в системе
theme-light = Светлая
theme-dark = Тёмная
settings-appearance-heading = Язык и тема
settings-appearance-help = Каждый браузер хранит свой выбор. Уведомления на рабочем столе используют язык, выбранный последним.

error-invalid-answer = Ответ не подходит к вопросу; проверьте выбор.
error-not-found = Этого вопроса больше нет.
error-not-pending = Этот вопрос уже закрыт.
error-too-many = Слишком много вопросов ждут ответа; сначала ответьте на некоторые или пропустите их.
error-too-many-messages = Для этого агента уже ждёт слишком много сообщений; он получит их, когда в следующий раз обратится к Hark.
error-unavailable = Не удаётся связаться с Hark; попробуйте чуть позже.
error-bad-request = Hark не смог прочитать этот запрос: страница Hark такого не отправляет. Вернитесь во входящие и попробуйте снова.

# Дата и время: $hour и $minute — по две цифры.
date-time = { $day } { $month ->
    [1] янв.
    [2] февр.
    [3] мар.
    [4] апр.
    [5] мая
    [6] июня
    [7] июля
    [8] авг.
    [9] сент.
    [10] окт.
    [11] нояб.
   *[12] дек.
} { $year } г., { $hour }:{ $minute }

settings-elicitation = Спрашивать и в окне самого агента, если оно умеет показывать вопросы (засчитывается первый ответ, там или здесь)
settings-lan = Разрешить отвечать с других устройств в этой сети (телефонов, планшетов); вступает в силу после перезапуска демона
phone-heading = Отвечать с телефона
phone-scan = Отсканируйте этот код камерой телефона. Телефон должен быть в той же сети, что и этот компьютер; Hark откроется уже подключённым.
phone-secret = Любой, у кого есть эта ссылка, может читать вопросы ваших агентов и отвечать на них. Чтобы отключить все подключённые устройства, выполните «hark token --rotate».
phone-no-address = Hark слушает сеть, но у этого компьютера нет сетевого адреса, доступного телефону.
phone-off = Отвечать с других устройств сейчас нельзя: Hark слушает только этот компьютер. Чтобы включить, отметьте выше «Разрешить отвечать с других устройств» и перезапустите Hark или запустите его командой «hark serve --lan».

history-older = Показать более ранние вопросы
history-loading-older = Загрузка…

history-export = Скачать всю историю:
history-export-markdown = документ Markdown
history-export-json = данные JSON

# Уведомлять и в других местах (настройки)
elsewhere-heading = Уведомлять и в других местах
elsewhere-intro = Hark может присылать каждый вопрос в ваш чат Telegram, на телефон через ntfy и на вебхуки (Slack, Discord, Home Assistant…). Пока канал не включён, ничего не покидает этот компьютер.
elsewhere-ntfy = Присылать каждый вопрос на телефон через ntfy
elsewhere-ntfy-server = Сервер ntfy
elsewhere-ntfy-topic = Тема
elsewhere-ntfy-topic-help = Подпишитесь на эту тему в приложении ntfy. Любой, кто её знает, может читать уведомления, поэтому выберите такую, которую трудно угадать.
elsewhere-ntfy-token = Токен доступа (необязательно)
elsewhere-ntfy-token-help = Для защищённой темы или своего сервера. Хранится в secrets.json и больше не показывается; оставьте поле пустым, чтобы сохранить прежний.
elsewhere-ntfy-token-set = Токен доступа сохранён.
elsewhere-ntfy-token-forget = Удалить сохранённый токен доступа
elsewhere-public-url = Публичный адрес
elsewhere-public-url-help = Адрес, по которому телефон достаёт до этого компьютера откуда угодно, например имя в Tailscale (https://desk.tail1234.ts.net). Его используют ссылки и кнопки ответа в уведомлениях; без него — адрес режима LAN.
elsewhere-no-links = Не задан ни публичный адрес, ни режим LAN, поэтому уведомления содержат только текст: отвечайте на этом компьютере.
elsewhere-content = Показывать вопрос в уведомлениях (если выключено, они лишь сообщают, что вопрос ждёт ответа)
elsewhere-webhooks = Вебхуки
elsewhere-webhooks-help = По одному адресу в строке. Каждый получает вопрос, когда его задают и когда он закрывается, с подписью своим секретом (заголовок X-Hark-Signature).
elsewhere-webhook-secret = Секрет для { $url }:
elsewhere-status = { $target }: отправлено { $sent }, неудачных попыток { $failures }
elsewhere-status-failing = { $target } не получает сообщения: { $reason }
elsewhere-save = Сохранить каналы
elsewhere-test-ntfy = Отправить тестовое уведомление
elsewhere-test-webhook = Отправить тест на вебхуки
elsewhere-test-sent = Тест дошёл.
elsewhere-test-failed = Тест не дошёл: { $reason }
elsewhere-action-failed = Не получилось: { $reason }
settings-channels-invalid = Настройка канала неверна: проверьте адреса и тему (латинские буквы, цифры, - и _).

# Telegram (настройки)
elsewhere-telegram = Бот Telegram
elsewhere-telegram-help = Каждый вопрос приходит в чат Telegram, и ответить можно там же одним нажатием. Создайте бота у @BotFather (/newbot), вставьте сюда его токен и отправьте боту код привязки.
elsewhere-telegram-enabled = Отправлять вопросы в Telegram
elsewhere-telegram-token = Токен бота
elsewhere-telegram-token-help = Его выдаёт @BotFather. Хранится в secrets.json и больше не показывается; оставьте поле пустым, чтобы сохранить прежний токен и получить новый код привязки.
elsewhere-telegram-connect = Проверить токен и получить код привязки
elsewhere-telegram-bot = Бот: @{ $bot }
elsewhere-telegram-token-set = Токен бота сохранён.
elsewhere-telegram-code = Чтобы привязать свой чат, отправьте боту в течение 10 минут:
elsewhere-telegram-open = Открыть чат с уже вписанным кодом
elsewhere-telegram-paired = Чат привязан: вопросы приходят туда, и отвечать может только он.
elsewhere-telegram-not-paired = Чат ещё не привязан.
elsewhere-telegram-unpair = Отвязать чат
elsewhere-telegram-forget = Удалить токен бота и выключить бота
elsewhere-test-telegram = Отправить тестовое сообщение в Telegram
elsewhere-telegram-token-shape = Это не похоже на токен бота. @BotFather выдаёт токены вида 123456789:AAE… (цифры, двоеточие, затем буквы и цифры).
elsewhere-telegram-wrong-token = Telegram не знает такого токена. Скопируйте его заново у @BotFather (/mybots → API Token).
elsewhere-telegram-no-token = Сначала вставьте токен бота от @BotFather.
elsewhere-telegram-unreachable = Не удалось связаться с Telegram, чтобы проверить токен: { $reason }
elsewhere-slack = Slack
elsewhere-slack-help = Отправлять каждый вопрос вам в личные сообщения Slack и отвечать там одним нажатием. Создайте приложение Slack по манифесту из README Hark (со включённым Socket Mode: к этому компьютеру ничего подключаться не должно), установите его в рабочее пространство, вставьте сюда два его токена и отправьте приложению код привязки в личном сообщении.
elsewhere-slack-enabled = Отправлять вопросы в Slack
elsewhere-slack-bot-token = OAuth-токен бота (Bot User OAuth Token, xoxb-…)
elsewhere-slack-app-token = Токен уровня приложения (xapp-…, с connections:write)
elsewhere-slack-token-help = Хранятся в secrets.json и больше не показываются; оставьте оба поля пустыми, чтобы сохранить прежние и получить новый код привязки.
elsewhere-slack-connect = Проверить токены и получить код привязки
elsewhere-slack-bot = Приложение: @{ $bot } в { $team }
elsewhere-slack-token-set = Оба токена сохранены.
elsewhere-slack-connected = Соединение со Slack установлено.
elsewhere-slack-not-connected = Сейчас нет соединения со Slack; Hark продолжает попытки.
elsewhere-slack-code = Чтобы привязать, отправьте это приложению в личном сообщении Slack в течение 10 минут:
elsewhere-slack-paired = Человек привязан: вопросы приходят ему в личные сообщения, и отвечать может только он.
elsewhere-slack-not-paired = Пока никто не привязан.
elsewhere-slack-unpair = Отвязать
elsewhere-slack-forget = Удалить токены Slack и отключить Slack
elsewhere-test-slack = Отправить тестовое сообщение в Slack
elsewhere-slack-bot-token-shape = Это не похоже на токен бота: Bot User OAuth Token в Slack начинается с xoxb-.
elsewhere-slack-app-token-shape = Это не похоже на токен уровня приложения: он начинается с xapp- (Basic Information → App-Level Tokens).
elsewhere-slack-wrong-bot-token = Slack не принимает этот токен бота. Установите приложение в рабочее пространство и скопируйте токен заново в OAuth & Permissions.
elsewhere-slack-wrong-app-token = Slack не принимает этот токен уровня приложения. Создайте токен с областью connections:write и включите Socket Mode.
elsewhere-slack-no-token = Сначала вставьте оба токена.
elsewhere-slack-unreachable = Не удалось связаться со Slack, чтобы проверить токены: { $reason }
elsewhere-discord = Discord
elsewhere-discord-help = Отправлять каждый вопрос вам в личные сообщения Discord и отвечать там одним нажатием. Создайте приложение на портале разработчиков Discord, скопируйте сюда токен его бота, добавьте бота на сервер, где есть вы (чтобы он мог вам писать), и отправьте ему код привязки в личном сообщении. К этому компьютеру ничего подключаться не должно.
elsewhere-discord-enabled = Отправлять вопросы в Discord
elsewhere-discord-bot-token = Токен бота
elsewhere-discord-token-help = Со страницы Bot на портале разработчиков (Reset Token). Хранится в secrets.json и больше не показывается; оставьте поле пустым, чтобы сохранить прежний и получить новый код привязки.
elsewhere-discord-connect = Проверить токен и получить код привязки
elsewhere-discord-bot = Бот: @{ $bot }
elsewhere-discord-token-set = Токен бота сохранён.
elsewhere-discord-connected = Соединение с Discord установлено.
elsewhere-discord-not-connected = Сейчас нет соединения с Discord; Hark продолжает попытки.
elsewhere-discord-code = Чтобы привязать, отправьте это боту в личном сообщении Discord в течение 10 минут:
elsewhere-discord-paired = Человек привязан: вопросы приходят ему в личные сообщения, и отвечать может только он.
elsewhere-discord-not-paired = Пока никто не привязан.
elsewhere-discord-unpair = Отвязать
elsewhere-discord-forget = Удалить токен Discord и отключить Discord
elsewhere-test-discord = Отправить тестовое сообщение в Discord
elsewhere-discord-token-shape = Это не похоже на токен бота: портал разработчиков выдаёт токен из трёх частей, разделённых точками.
elsewhere-discord-wrong-token = Discord не принимает этот токен. Сбросьте его на странице Bot портала разработчиков и скопируйте новый.
elsewhere-discord-no-token = Сначала вставьте токен бота.
elsewhere-discord-unreachable = Не удалось связаться с Discord, чтобы проверить токен: { $reason }
elsewhere-feishu = Feishu / Lark
elsewhere-feishu-help = Отправлять каждый вопрос карточкой в чат с ботом в Feishu или Lark и отвечать там одним нажатием. Создайте собственное приложение в консоли разработчика, добавьте ему бота, выберите получение событий через постоянное соединение (к этому компьютеру не нужно подключаться извне), опубликуйте версию, вставьте сюда App ID и App Secret, затем отправьте боту код привязки.
elsewhere-feishu-enabled = Отправлять вопросы в Feishu / Lark
elsewhere-feishu-platform = Где находится приложение
elsewhere-feishu-platform-feishu = Feishu (Китай, open.feishu.cn)
elsewhere-feishu-platform-lark = Lark (за пределами Китая, open.larksuite.com)
elsewhere-feishu-platform-other = Другой адрес: { $address }
elsewhere-feishu-app-id = Идентификатор App ID (cli_…)
elsewhere-feishu-app-secret = Секрет App Secret
elsewhere-feishu-secret-help = Оба — на странице учётных данных и основной информации. Хранятся в secrets.json и больше не показываются; оставьте оба поля пустыми, чтобы сохранить прежние и получить новый код привязки.
elsewhere-feishu-connect = Проверить приложение и получить код привязки
elsewhere-feishu-bot = Приложение: { $bot }
elsewhere-feishu-token-set = App ID и App Secret сохранены.
elsewhere-feishu-connected = Соединение с Feishu / Lark установлено.
elsewhere-feishu-not-connected = Сейчас нет соединения с Feishu / Lark; Hark продолжает попытки.
elsewhere-feishu-code = Чтобы привязать, отправьте это боту в личном сообщении в течение 10 минут:
elsewhere-feishu-paired = Человек привязан: вопросы приходят в его чат с ботом, и отвечать может только он.
elsewhere-feishu-not-paired = Пока никто не привязан.
elsewhere-feishu-unpair = Отвязать
elsewhere-feishu-forget = Удалить приложение Feishu / Lark и отключить его
elsewhere-test-feishu = Отправить тестовое сообщение в Feishu / Lark
elsewhere-feishu-app-id-shape = Это не похоже на App ID: он начинается с cli_ (страница учётных данных и основной информации).
elsewhere-feishu-wrong-app-id = Feishu / Lark не знает такого App ID. Скопируйте его ещё раз и проверьте, что приложение находится на выбранной выше платформе.
elsewhere-feishu-wrong-secret = App Secret не подходит к этому App ID. Скопируйте его ещё раз со страницы учётных данных и основной информации.
elsewhere-feishu-no-bot = У приложения ещё нет бота. Добавьте бота, опубликуйте версию и попробуйте снова.
elsewhere-feishu-no-credentials = Сначала вставьте App ID и App Secret.
elsewhere-feishu-unreachable = Не удалось связаться с Feishu / Lark, чтобы проверить приложение: { $reason }

# WeChat (настройки)
elsewhere-wechat = WeChat
elsewhere-wechat-help = Каждый вопрос приходит в ваш WeChat текстом, и вы отвечаете там: номером, своими словами или словом «пропустить». Войдите, отсканировав код в WeChat; отвечать может только отсканировавший аккаунт.
elsewhere-wechat-enabled = Отправлять вопросы в WeChat
elsewhere-wechat-connect = Войти через WeChat
elsewhere-wechat-scan = Отсканируйте этот код в WeChat (Discover → Scan), затем подтвердите вход на телефоне.
elsewhere-wechat-scanned = Код отсканирован: подтвердите вход на телефоне.
elsewhere-wechat-needs-code = WeChat показывает на телефоне число: введите его здесь.
elsewhere-wechat-wrong-code = Число не совпало: введите то, что WeChat показывает сейчас.
elsewhere-wechat-code = Число с телефона
elsewhere-wechat-send-code = Отправить число
elsewhere-wechat-check = Я отсканировал код: проверить снова
elsewhere-wechat-confirmed = Вход выполнен.
elsewhere-wechat-expired = Код истёк до подтверждения входа. Войдите снова, чтобы получить новый.
elsewhere-wechat-failed = Вход не удался: { $reason }
elsewhere-wechat-paired = Вход выполнен: вопросы приходят в отсканировавший WeChat, и отвечать может только он.
elsewhere-wechat-not-paired = Вход не выполнен.
elsewhere-wechat-session-ended = WeChat завершил вход. Войдите снова, чтобы и дальше получать вопросы.
elsewhere-wechat-unpair = Выйти из WeChat
elsewhere-wechat-unreachable = Не удалось получить у WeChat код для входа: { $reason }
elsewhere-wechat-code-shape = Введите цифры, которые WeChat показывает на телефоне.
elsewhere-test-wechat = Отправить тестовое сообщение в WeChat

# Быстрые ответы
rules-heading = Запомненные решения
rules-help = Запросы разрешений, на которые вы ответили «Всегда разрешать» или «Всегда запрещать». Когда тот же агент снова просит о том же вызове, Hark сразу отвечает сам, не спрашивая вас, и это видно в истории.
rules-none = Запомненных решений пока нет.
rules-allowed = Всегда разрешено
rules-denied = Всегда запрещено
rules-what = { $agent }: { $tool }
rules-take-back = Отменить
presets-heading = Быстрые ответы
presets-help = Фразы, которые вы часто пишете, по одной в строке и в нужном порядке. В вопросе нажмите на фразу под полем ввода или нажмите Alt+1…Alt+9 во время набора, чтобы вставить её. Чтобы изменить, переставить или удалить фразу, отредактируйте строки здесь.
presets-placeholder = Выглядит хорошо, продолжай.
presets-save = Сохранить быстрые ответы
presets-invalid = Быстрых ответов может быть не больше 50, каждый — не длиннее 500 символов.
presets-label = Быстрые ответы

## Agent sessions (SPEC §20): the Agents page and the notices of an agent that finished or waits.
session-state = { $state ->
        [working] Работает
        [asking] Спрашивает вас в Hark
        [waiting] Ждёт вас в своём окне
        [finished] Закончил ход
       *[ended] Завершён
    }
session-notice-finished = { $agent } закончил ход
session-notice-waiting = { $agent } ждёт вас в своём окне
session-notice-open = Открыть список агентов
nav-agents = Агенты
agents-title = Ваши агенты
agents-loading = Загрузка агентов…
agents-empty = Пока ни один агент не сообщил Hark, чем занят. Добавьте своим агентам хуки Hark (см. раздел «Агенты» в руководстве Hark), и каждый появится здесь: работает, ждёт вас или закончил.
agents-questions = Ждут вашего ответа
settings-continue-wait = Сколько закончивший агент ждёт вашего ответа (секунды)
settings-continue-wait-help = Когда Claude Code, Codex, Gemini CLI или Cursor заканчивает ход, его хук столько ждёт вашего сообщения, и оно продолжает работу агента. 0 — не ждать; уже ожидающее сообщение всё равно продолжит её.
settings-continue-wait-invalid = Нужно целое число секунд от 0 до 86400 (сутки).
settings-session-idle = Забыть затихшего агента через (секунды)
settings-session-idle-help = Агент, от которого столько не было вестей, исчезает со страницы агентов.
settings-session-idle-invalid = Нужно целое число секунд от 60 до 604800 (неделя).
settings-notify-waiting = Сообщать, когда агент ждёт меня в своём окне
settings-notify-finished = Сообщать, когда агент закончил ход
